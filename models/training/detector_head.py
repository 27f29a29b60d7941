"""Cut the box decoding out of an exported YOLO detector; the runtime decodes only likely boxes.

    .venv/bin/python -m models.training.detector_head runs/vision/det4/weights/best.onnx \
        models/weights/detector.onnx

An ultralytics ONNX export ends by turning every one of the 8400 anchors' 64 box logits into a
box: a softmax over 16 distance bins laid out across the wrong axis, which ONNX Runtime runs
slowly (15 of 49 ms per 640 px frame on this CPU, more than any convolution). The cut model
outputs the raw logits (``box_logits``, 1 x 64 x 8400) and the class scores (``scores``,
1 x classes x 8400); ``vision.detector_backends.decode_boxes`` decodes only the anchors that
score above the threshold, typically a few hundred. The network is unchanged, so the boxes are
identical.
"""

from __future__ import annotations

import argparse
from pathlib import Path

BOX_OUTPUT, SCORE_OUTPUT = "box_logits", "scores"


def cut_head(source: Path, target: Path) -> None:
    """Write ``target``: ``source`` ending at its concatenated box logits and sigmoid scores."""
    import onnx
    from onnx import helper

    model = onnx.load(str(source))
    graph = model.graph
    producers = {out: node for node in graph.node for out in node.output}
    final = producers[graph.output[0].name]  # Concat(decoded boxes, sigmoid scores)
    sigmoid = producers[final.input[1]]
    if sigmoid.op_type != "Sigmoid":
        raise ValueError(f"{source}: not an ultralytics detection head (ends in {final.op_type})")
    box_concat = next(node for node in graph.node if node.name.endswith("/dfl/Reshape")).input[0]
    renames = {box_concat: BOX_OUTPUT, sigmoid.output[0]: SCORE_OUTPUT}
    # keep only the nodes the two new outputs depend on
    needed: set[str] = set(renames)
    kept = []
    for node in reversed(graph.node):
        if any(out in needed for out in node.output):
            kept.append(node)
            needed.update(node.input)
    kept.reverse()
    for node in kept:
        node.input[:] = [renames.get(name, name) for name in node.input]
        node.output[:] = [renames.get(name, name) for name in node.output]
    used = {name for node in kept for name in node.input}
    initializers = [init for init in graph.initializer if init.name in used]
    classes = graph.output[0].type.tensor_type.shape.dim[1].dim_value - 4
    anchors = graph.output[0].type.tensor_type.shape.dim[2].dim_value
    outputs = [
        helper.make_tensor_value_info(BOX_OUTPUT, onnx.TensorProto.FLOAT, [1, 64, anchors]),
        helper.make_tensor_value_info(SCORE_OUTPUT, onnx.TensorProto.FLOAT, [1, classes, anchors]),
    ]
    cut = helper.make_graph(kept, graph.name, list(graph.input), outputs, initializers)
    trimmed = helper.make_model(cut, opset_imports=list(model.opset_import))
    trimmed.ir_version = model.ir_version
    trimmed.metadata_props.extend(model.metadata_props)
    onnx.checker.check_model(trimmed)
    onnx.save(trimmed, str(target))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="an ultralytics ONNX export")
    parser.add_argument("target", type=Path)
    args = parser.parse_args()
    cut_head(args.source, args.target)
    print(f"wrote {args.target} ({args.target.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
