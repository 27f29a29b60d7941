#!/usr/bin/env bash
# Final training run on a GPU machine (one command; ~1 h on one modern GPU).
# Same recipe as the CPU run, with more rendered tables, a longer detector schedule and a
# larger batch. Writes models/weights/{detector,classifier,classifier-int8}.onnx and their
# .sha256 files (the detector with its head cut, the int8 copy re-quantized from the new float).
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install -e '.[train]'
python -m models.train --out runs/vision-gpu --images 6000 --val-images 200 \
    --detector-hours 0.8 --classifier-epochs 30 --batch 64 --device 0 "$@"
python -m models.evaluate --out models/report
