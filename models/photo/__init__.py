"""The photo detector: its training from rendered scenes and its evaluation."""
