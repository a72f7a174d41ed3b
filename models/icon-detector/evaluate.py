"""Precision/recall of the exported detector, decoded exactly like src/vision/detector/decode.ts:
best class per column, score >= conf, class-wise NMS, at most max_det boxes; a detection is a true
positive when it matches an unmatched ground-truth box of its class with IoU >= 0.5 (greedy, by score).
"""
import numpy as np
import torch


def iou_one(b, boxes):
    iw = np.clip(np.minimum(b[2], boxes[:, 2]) - np.maximum(b[0], boxes[:, 0]), 0, None)
    ih = np.clip(np.minimum(b[3], boxes[:, 3]) - np.maximum(b[1], boxes[:, 1]), 0, None)
    inter = iw * ih
    area = lambda x: (x[..., 2] - x[..., 0]) * (x[..., 3] - x[..., 1])  # noqa: E731
    return inter / (area(b) + area(boxes) - inter + 1e-9)


def decode(out, conf=0.3, nms_iou=0.5, max_det=300):
    """out: [4 + C, N] numpy -> (boxes x1y1x2y2 [K,4], cls [K], score [K])."""
    scores = out[4:]
    cls = scores.argmax(axis=0)
    score = scores.max(axis=0)
    keep = np.nonzero(score >= conf)[0]
    cx, cy, w, h = out[0, keep], out[1, keep], out[2, keep], out[3, keep]
    boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)
    cls, score = cls[keep], score[keep]
    chosen = []
    for c in np.unique(cls):
        idx = np.nonzero(cls == c)[0]
        idx = idx[np.argsort(-score[idx], kind="stable")]
        while len(idx):
            i = idx[0]
            chosen.append(i)
            if len(idx) == 1:
                break
            rest = idx[1:]
            idx = rest[iou_one(boxes[i], boxes[rest]) < nms_iou]
    chosen = sorted(chosen, key=lambda i: -score[i])[:max_det]
    return boxes[chosen], cls[chosen], score[chosen]


def match(pred_boxes, pred_cls, pred_score, gt_boxes, gt_cls, num_classes, match_iou=0.5):
    tp = np.zeros(num_classes, int)
    n_pred = np.bincount(pred_cls, minlength=num_classes)
    n_gt = np.bincount(gt_cls, minlength=num_classes)
    used = np.zeros(len(gt_boxes), bool)
    for i in np.argsort(-pred_score):
        cand = np.nonzero((gt_cls == pred_cls[i]) & ~used)[0]
        if not len(cand):
            continue
        ious = iou_one(pred_boxes[i], gt_boxes[cand])
        j = int(np.argmax(ious))
        if ious[j] >= match_iou:
            used[cand[j]] = True
            tp[pred_cls[i]] += 1
    return tp, n_pred, n_gt


def pr(tp, n_pred, n_gt):
    return {"precision": round(float(tp / max(n_pred, 1)), 3), "recall": round(float(tp / max(n_gt, 1)), 3), "gt": int(n_gt)}


@torch.no_grad()
def evaluate_split(wrapper, items, classes, conf=0.3, nms_iou=0.5):
    nc = len(classes)
    totals = {"all": np.zeros((3, nc), int), "phone": np.zeros((3, nc), int), "layout": np.zeros((3, nc), int)}
    for it in items:
        img = torch.from_numpy(it[0]).float().unsqueeze(0) / 255.0
        out = wrapper(img)[0].numpy()
        pb, pc, ps = decode(out, conf, nms_iou)
        tp, n_pred, n_gt = match(pb, pc, ps, it[4], it[5], nc)
        for key in ("all", it[6]):
            totals[key] += np.stack([tp, n_pred, n_gt])
    res = {"screens": len(items)}
    t = totals["all"]
    for k, name in enumerate(classes):
        res[name] = pr(t[0, k], t[1, k], t[2, k])
    res["overall"] = pr(t[0].sum(), t[1].sum(), t[2].sum())
    for src in ("phone", "layout"):
        s = totals[src]
        res[f"overall_{src}_screens"] = pr(s[0].sum(), s[1].sum(), s[2].sum())
    return res
