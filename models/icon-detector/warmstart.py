"""Start training from a previously exported detector: read its weights back out of the ONNX file.

The export folds each BatchNorm into the convolution before it (eval mode), so a Conv node carries
W' = W * g / s and b' = beta - mu * g / s. Loading puts W' into the conv and makes the BatchNorm an
identity plus b' (running mean 0, variance 1, gain sqrt(1 + eps)); `freeze_batchnorm` then keeps
those statistics fixed while training (their gain and bias still learn), so the network starts out
computing exactly what the ONNX computes. Conv nodes are matched to modules by the scope names
torch writes into node outputs ('/det/s3/s3.1/a/a.0/Conv_output_0' -> 's3.1.a.0').
"""
import math

import onnx
import torch
import torch.nn as nn
from onnx import numpy_helper


def _module_name(output):
    comps = output.split("/")[2:-1]  # drop '', 'det' and 'Conv_output_0'
    name, last = "", ""
    for c in comps:
        if last and c.startswith(last + "."):
            name += c[len(last) :]
        else:
            name = f"{name}.{c}" if name else c
        last = c
    return name


def load_onnx_weights(model, path):
    """Copy every Conv's (fused) weight and bias from the ONNX at `path` into `model`; returns the count."""
    graph = onnx.load(path).graph
    init = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in graph.initializer}
    modules = dict(model.named_modules())
    loaded = 0
    for node in graph.node:
        if node.op_type != "Conv":
            continue
        name = _module_name(node.output[0])
        conv = modules.get(name)
        if not isinstance(conv, nn.Conv2d):
            raise SystemExit(f"warm start: no conv named {name!r} for {node.output[0]}")
        w, b = init[node.input[1]], init[node.input[2]]
        with torch.no_grad():
            conv.weight.copy_(w)
            if conv.bias is not None:
                conv.bias.copy_(b)
            else:  # the BatchNorm that follows in the same Sequential was folded into this conv
                parent, idx = name.rsplit(".", 1)
                bn = modules[f"{parent}.{int(idx) + 1}"]
                bn.running_mean.zero_()
                bn.running_var.fill_(1.0)
                bn.weight.fill_(math.sqrt(1.0 + bn.eps))
                bn.bias.copy_(b)
        loaded += 1
    return loaded


def freeze_batchnorm(model):
    """Keep BatchNorm statistics fixed (eval mode) inside a model that is otherwise training."""
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()
