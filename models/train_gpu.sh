#!/usr/bin/env bash
# The GPU run (models/training/train_gpu.py): ~7 minutes on one GPU machine with 16 cores, offline.
# Prepare here (CPU machine, `train` extra), where ../shared and cairo exist:
#   .venv/bin/python -m models.training.train_gpu pack .devdata/faces.npz --shared ../shared/datasets
#   mkdir -p .devdata/datasets/camerash-tiles && cp -r ../shared/datasets/camerash-tiles/{labels.csv,tiles-resized,untagged-tiles} .devdata/datasets/camerash-tiles/
#   (faces.npz ~11 MB, the photos ~14 MB, the wheels ~35 MB: under the 64 MiB carry limit)
#   .venv/bin/python -m models.training.onnx_checkpoint models/weights/detector.onnx .devdata/init.pt --images DIR
#   wheels for Python 3.12 in .whl/: ultralytics==8.4.190 ultralytics-thop==2.2.3
#     ultralytics-platform==0.1.99 polars==1.9.0 (the machine has torch, OpenCV, ONNX Runtime)
# .devdata/ and .whl/ are git-ignored (.git/info/exclude) and travel with the tree. Results (three
# classifier candidates, the continued detector, the log) land in $RESULTS; choose on the CPU
# machine with `python -m models.evaluation.evaluate` and record the choice in models/weights/RECIPE.md.
set -euo pipefail
cd "$(dirname "$0")/.."
RESULTS=${RESULTS:-${OUT:-runs/gpu/results}}
if [ -d .whl ]; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target /tmp/site .whl/*.whl
    export PYTHONPATH=/tmp/site:$PWD
fi
export YOLO_OFFLINE=1 PYTHONUNBUFFERED=1
mkdir -p "$RESULTS"
nvidia-smi --query-gpu=name,memory.total --format=csv || true
python3 -m models.training.train_gpu run --faces .devdata/faces.npz --photos .devdata/datasets \
    --detector-init .devdata/init.pt --results "$RESULTS" "$@" 2>&1 | tee "$RESULTS/log.txt"
