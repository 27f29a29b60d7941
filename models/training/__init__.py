"""Training the networks: the detector recipe and its ONNX head, the classifiers (tile, expert,
close-up flower reader), crop sets, quantization and model soups."""
