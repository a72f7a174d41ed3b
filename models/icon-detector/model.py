"""PiClaw UI-element detector: a small CenterNet/TTFNet-style network.

A stride-32 residual backbone with a top-down FPN back to stride 4, a per-class centre heatmap and a
box head predicting distances (left, top, right, bottom) to the box edges in input pixels.
`ExportWrapper` turns the raw heads into the YOLOv8 output layout: `output0` [1, 4 + classes, N] with
rows cx, cy, w, h (input pixels) then per-class scores, one column per stride-4 cell. Scores are
already peak-filtered (a 3x3 max-pool keeps only local maxima), so a plain YOLO decoder + NMS works.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

STRIDE = 4
BOX_BASE = 8.0  # box head: distance = 8 px * exp(x); log-space reaches wide rows and text lines quickly


def conv_bn(cin, cout, k=3, s=1):
    return nn.Sequential(nn.Conv2d(cin, cout, k, s, k // 2, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.a = conv_bn(c, c)
        self.b = nn.Sequential(nn.Conv2d(c, c, 3, 1, 1, bias=False), nn.BatchNorm2d(c))

    def forward(self, x):
        return F.relu(x + self.b(self.a(x)))


def stage(cin, cout, blocks):
    return nn.Sequential(conv_bn(cin, cout, 3, 2), *[Block(cout) for _ in range(blocks)])


class Detector(nn.Module):
    def __init__(self, num_classes=3, neck=48, fine=24):
        super().__init__()
        self.num_classes = num_classes
        self.stem = conv_bn(3, 16, 3, 2)  # /2
        self.s2 = stage(16, 24, 0)  # /4
        self.s3 = stage(24, 48, 1)  # /8
        self.s4 = stage(48, 96, 1)  # /16
        self.s5 = stage(96, 160, 1)  # /32
        self.l5 = nn.Conv2d(160, neck, 1)
        self.l4 = nn.Conv2d(96, neck, 1)
        self.l3 = nn.Conv2d(48, neck, 1)
        self.l2 = nn.Conv2d(24, fine, 1)
        self.down3 = nn.Conv2d(neck, fine, 1)  # stride-4 maps are the costly ones: keep them thin
        self.smooth4 = conv_bn(neck, neck)
        self.smooth3 = conv_bn(neck, neck)
        self.smooth2 = conv_bn(fine, fine)
        self.hm = nn.Sequential(conv_bn(fine, fine), nn.Conv2d(fine, num_classes, 1))
        self.box = nn.Sequential(conv_bn(fine, fine), nn.Conv2d(fine, 4, 1))
        bias = self.hm[-1].bias
        nn.init.constant_(bias, -4.6)  # prior 0.01: the heatmap starts almost empty

    def forward(self, x):
        c2 = self.s2(self.stem(x))
        c3 = self.s3(c2)
        c4 = self.s4(c3)
        c5 = self.s5(c4)
        p5 = self.l5(c5)
        p4 = self.smooth4(self.l4(c4) + F.interpolate(p5, size=c4.shape[-2:], mode="nearest"))
        p3 = self.smooth3(self.l3(c3) + F.interpolate(p4, size=c3.shape[-2:], mode="nearest"))
        p2 = self.smooth2(self.l2(c2) + F.interpolate(self.down3(p3), size=c2.shape[-2:], mode="nearest"))
        return self.hm(p2), BOX_BASE * torch.exp(self.box(p2).clamp(-4.0, 5.0))


class ExportWrapper(nn.Module):
    """Raw heads -> YOLOv8 layout [1, 4 + classes, H/4 * W/4]."""

    def __init__(self, det, in_h, in_w):
        super().__init__()
        self.det = det
        gh, gw = in_h // STRIDE, in_w // STRIDE
        ys, xs = torch.meshgrid(torch.arange(gh, dtype=torch.float32), torch.arange(gw, dtype=torch.float32), indexing="ij")
        self.register_buffer("gx", ((xs + 0.5) * STRIDE).reshape(1, 1, -1))
        self.register_buffer("gy", ((ys + 0.5) * STRIDE).reshape(1, 1, -1))

    def forward(self, images):
        hm, box = self.det(images)
        scores = torch.sigmoid(hm)
        peaks = F.max_pool2d(scores, 3, 1, 1)
        scores = scores * (peaks == scores).float()
        n = scores.shape[2] * scores.shape[3]
        scores = scores.reshape(1, -1, n)
        ltrb = box.reshape(1, 4, n)
        l, t, r, b = ltrb[:, 0:1], ltrb[:, 1:2], ltrb[:, 2:3], ltrb[:, 3:4]
        x1, y1, x2, y2 = self.gx - l, self.gy - t, self.gx + r, self.gy + b
        return torch.cat([(x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1, scores], dim=1)
