"""An SSD-shaped ONNX detector with fixed boxes, made with python3-onnx.

The model takes uint8 RGB [1, height, width, 3] (onnxinference's default
HWC layout) and outputs what ssdobjectdetector reads, under the output names
onnxinference maps to its tensor ids without model metadata:
detection_boxes [1, N, 4] (y1, x1, y2, x2 in 0..1), detection_scores [1, N],
detection_classes [1, N] (label-file lines) and num_detections [1], all
float32. Used by tests/analytics and by the example's test (object_colours.py).
"""
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def make_model(path, width, height, boxes):
    """Writes the model; `boxes`: [(x1, y1, x2, y2)] in pixels, class i + 1 and score 0.9 - 0.1 i each."""
    n = len(boxes)
    outputs = {
        "detection_boxes": np.array([[[y1 / height, x1 / width, y2 / height, x2 / width]
                                      for x1, y1, x2, y2 in boxes]], dtype=np.float32),
        "detection_scores": np.array([[0.9 - 0.1 * i for i in range(n)]], dtype=np.float32),
        "detection_classes": np.array([[i + 1 for i in range(n)]], dtype=np.float32),
        "num_detections": np.array([n], dtype=np.float32),
    }
    image = helper.make_tensor_value_info("image", TensorProto.UINT8, [1, height, width, 3])
    nodes, initializers, values = [], [], []
    for name, array in outputs.items():
        initializers.append(numpy_helper.from_array(array, name + "_value"))
        nodes.append(helper.make_node("Identity", [name + "_value"], [name]))
        values.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, list(array.shape)))
    graph = helper.make_graph(nodes, "fixed-ssd", [image], values, initializer=initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, path)


def write_labels(path, labels):
    """ssdobjectdetector's label-file: line 0 the background class, then `labels`."""
    with open(path, "w") as f:
        f.write("\n".join(["background"] + list(labels)) + "\n")
