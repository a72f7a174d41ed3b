#!/usr/bin/python3
"""Train, evaluate and export the PiClaw UI-element detector (CPU, fixed seed).

  /usr/bin/python3 train.py --data work/data --out . [--seconds 900] [--threads 2]

Stages: prep (letterbox every screen to the model input; half of the training screens and the whole
camera-style test set get the photo treatment from photo.py; heatmap/box targets computed once),
train (time-budgeted, cosine LR), evaluate (P/R per class at IoU 0.5 on held-out clean and
camera-style screens, decoded exactly like the TypeScript runtime), export (ONNX opset 13, YOLOv8
layout) and metrics.json.
"""
import argparse
import glob
import json
import math
import os
import time
from multiprocessing import Pool

import numpy as np
import torch
import torch.nn.functional as F
from PIL import Image

from evaluate import evaluate_split
from model import STRIDE, Detector, ExportWrapper
from photo import camera_treatment, letterbox
from warmstart import freeze_batchnorm, load_onnx_weights

CLASSES = ["icon", "text", "control"]
IN_W, IN_H = 288, 640
N_TRAIN, N_VAL, N_CAM = 4000, 300, 200
ALPHA = 0.54  # TTFNet: Gaussian size relative to the box


def load_labels(data):
    screens = []
    for f in sorted(glob.glob(os.path.join(data, "labels-*.json"))):
        screens.extend(json.load(open(f))["screens"])
    screens.sort(key=lambda s: s["file"])
    return screens


def make_targets(boxes, cls):
    """TTFNet-style targets: per-class Gaussian heatmap, box corners and regression weights."""
    gh, gw = IN_H // STRIDE, IN_W // STRIDE
    hm = np.zeros((len(CLASSES), gh, gw), np.float32)
    reg = np.zeros((4, gh, gw), np.float32)
    wt = np.zeros((gh, gw), np.float32)
    areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]) if len(boxes) else np.zeros(0)
    for i in np.argsort(-areas):  # large first, so smaller boxes own the cells they share
        x1, y1, x2, y2 = boxes[i]
        w, h = x2 - x1, y2 - y1
        if w < 2 or h < 2:
            continue
        cx, cy = (x1 + x2) / 2 / STRIDE, (y1 + y2) / 2 / STRIDE
        ci, cj = min(gw - 1, int(cx)), min(gh - 1, int(cy))
        sx, sy = max(0.35, ALPHA * w / 6 / STRIDE), max(0.35, ALPHA * h / 6 / STRIDE)
        rx, ry = int(math.ceil(3 * sx)), int(math.ceil(3 * sy))
        xa, xb, ya, yb = max(0, ci - rx), min(gw, ci + rx + 1), max(0, cj - ry), min(gh, cj + ry + 1)
        xs = np.arange(xa, xb) - ci
        ys = np.arange(ya, yb) - cj
        g = np.exp(-(ys[:, None] ** 2) / (2 * sy * sy) - (xs[None, :] ** 2) / (2 * sx * sx))
        c = cls[i]
        hm[c, ya:yb, xa:xb] = np.maximum(hm[c, ya:yb, xa:xb], g)
        m = g > 0.05
        if not m.any():
            continue
        gm = np.where(m, g, 0)
        w_box = gm / gm.sum() * math.log(max(w * h, 2.0))
        sub = (slice(ya, yb), slice(xa, xb))
        for k, v in enumerate((x1, y1, x2, y2)):
            reg[k][sub] = np.where(m, v, reg[k][sub])
        wt[sub] = np.where(m, w_box, wt[sub])
    return hm, reg, wt


def prep_one(job):
    """Load one screen, optionally photo-treat it, letterbox it; returns arrays for training/eval."""
    data, entry, camera, seed = job
    rng = np.random.default_rng(seed)
    img = Image.open(os.path.join(data, entry["file"])).convert("RGB")
    raw = entry["boxes"]
    boxes = np.array([b[:4] for b in raw], np.float32).reshape(-1, 4)
    cls = np.array([CLASSES.index(b[4]) for b in raw], np.int64)
    sx = sy = 1.0
    if camera:
        img, boxes = camera_treatment(img, boxes, rng)
        sx, sy = rng.uniform(0.93, 1.07), rng.uniform(0.93, 1.07)  # other phones' aspect ratios
    img, boxes = letterbox(img, boxes, IN_W, IN_H, sx, sy)
    keep = ((boxes[:, 2] - boxes[:, 0]) >= 1.5) & ((boxes[:, 3] - boxes[:, 1]) >= 1.5)
    boxes, cls = boxes[keep], cls[keep]
    hm, reg, wt = make_targets(boxes, cls)
    chw = np.ascontiguousarray(np.asarray(img, np.uint8).transpose(2, 0, 1))
    return chw, hm.astype(np.float16), reg.astype(np.float16), wt.astype(np.float16), boxes, cls, entry["source"]


def prep(data, seed, threads, cache, n_train=N_TRAIN):
    """Prepared screens, from `cache` (a pickle under work/) when it was made from the same data and seed."""
    import pickle

    labels = sorted(glob.glob(os.path.join(data, "labels-*.json")))
    stamp = [seed, n_train, [(f, os.path.getmtime(f)) for f in labels]]
    if cache and os.path.exists(cache):
        with open(cache, "rb") as f:
            saved = pickle.load(f)
        if saved["stamp"] == stamp:
            return saved["sets"]
    sets = _prep(data, seed, threads, n_train)
    if cache:
        with open(cache, "wb") as f:
            pickle.dump({"stamp": stamp, "sets": sets}, f, protocol=4)
    return sets


def _prep(data, seed, threads, n_train):
    screens = load_labels(data)
    need = n_train + N_VAL + N_CAM
    if len(screens) < need:
        raise SystemExit(f"need {need} screens in {data}, found {len(screens)}")
    rng = np.random.default_rng(seed)
    jobs = []
    for i, e in enumerate(screens[:need]):
        camera = bool(rng.random() < 0.5) if i < n_train else i >= n_train + N_VAL
        jobs.append((data, e, camera, seed * 1_000_003 + i))
    with Pool(threads) as pool:
        out = pool.map(prep_one, jobs, chunksize=16)
    return out[:n_train], out[n_train : n_train + N_VAL], out[n_train + N_VAL :]


def focal_loss(logits, target):
    """CenterNet's penalty-reduced focal loss on the heatmap."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = target.eq(1).float()
    n_pos = pos.sum().clamp(min=1)
    pos_loss = torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = torch.log(1 - p) * p**2 * (1 - target) ** 4 * (1 - pos)
    return -(pos_loss.sum() + neg_loss.sum()) / n_pos


def giou_loss(box, reg, wt):
    """GIoU between predicted (ltrb around each cell centre) and target corners, weighted per cell."""
    mask = wt > 0
    if not mask.any():
        return box.sum() * 0
    gh, gw = box.shape[-2:]
    ys, xs = torch.meshgrid(torch.arange(gh), torch.arange(gw), indexing="ij")
    gx = ((xs.float() + 0.5) * STRIDE).expand(box.shape[0], gh, gw)[mask]
    gy = ((ys.float() + 0.5) * STRIDE).expand(box.shape[0], gh, gw)[mask]
    l, t, r, b = (box[:, k][mask] for k in range(4))
    px1, py1, px2, py2 = gx - l, gy - t, gx + r, gy + b
    tx1, ty1, tx2, ty2 = (reg[:, k][mask] for k in range(4))
    iw = (torch.min(px2, tx2) - torch.max(px1, tx1)).clamp(min=0)
    ih = (torch.min(py2, ty2) - torch.max(py1, ty1)).clamp(min=0)
    inter = iw * ih
    union = (px2 - px1) * (py2 - py1) + (tx2 - tx1) * (ty2 - ty1) - inter + 1e-6
    hull = (torch.max(px2, tx2) - torch.min(px1, tx1)) * (torch.max(py2, ty2) - torch.min(py1, ty1)) + 1e-6
    giou = inter / union - (hull - union) / hull
    w = wt[mask]
    return ((1 - giou) * w).sum() / (w.sum() + 1e-6)


def batch_tensors(items):
    img = torch.from_numpy(np.stack([it[0] for it in items])).float() / 255.0
    hm = torch.from_numpy(np.stack([it[1] for it in items])).float()
    reg = torch.from_numpy(np.stack([it[2] for it in items])).float()
    wt = torch.from_numpy(np.stack([it[3] for it in items])).float()
    return img, hm, reg, wt


def train(model, train_set, seconds, seed, batch=8, lr=2e-3, steps=0, frozen_bn=False):
    """Train for `seconds` of wall time, or exactly `steps` steps when given (reruns independent of load).

    `frozen_bn`: keep BatchNorm statistics fixed (a warm start from an exported model, see warmstart.py).
    """
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    rng = np.random.default_rng(seed)
    t0 = time.time()
    step, seen, epoch = 0, 0, 0
    order = rng.permutation(len(train_set))
    pos = 0
    model.train()
    if frozen_bn:
        freeze_batchnorm(model)
    while True:
        frac = step / steps if steps else (time.time() - t0) / seconds
        if frac >= 1:
            break
        warm = min(1.0, (step + 1) / 100)
        for g in opt.param_groups:
            g["lr"] = lr * warm * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * frac)))
        if pos + batch > len(order):
            order, pos, epoch = rng.permutation(len(train_set)), 0, epoch + 1
        items = [train_set[i] for i in order[pos : pos + batch]]
        pos += batch
        img, hm_t, reg_t, wt_t = batch_tensors(items)
        hm, box = model(img)
        l_hm = focal_loss(hm, hm_t)
        l_box = giou_loss(box, reg_t, wt_t)
        loss = l_hm + 5 * l_box
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        seen += len(items)
        if step % 50 == 0:
            el = time.time() - t0
            print(f"  step {step} epoch {epoch} {seen / el:.1f} img/s  hm {l_hm.item():.3f}  giou {l_box.item():.3f}", flush=True)
    return {"steps": step, "images_seen": seen, "epochs": round(seen / len(train_set), 2), "seconds": round(time.time() - t0, 1)}


def export(model, path):
    wrapper = ExportWrapper(model.eval(), IN_H, IN_W).eval()
    dummy = torch.rand(1, 3, IN_H, IN_W)
    torch.onnx.export(wrapper, dummy, path, opset_version=13, input_names=["images"], output_names=["output0"], do_constant_folding=True)
    import onnx

    m = onnx.load(path)
    for k, v in {"names": json.dumps(dict(enumerate(CLASSES))), "imgsz": json.dumps([IN_H, IN_W]), "stride": str(STRIDE), "author": "PiClaw", "license": "MIT"}.items():
        p = m.metadata_props.add()
        p.key, p.value = k, v
    onnx.checker.check_model(m)
    onnx.save(m, path)
    return wrapper


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="work/data")
    ap.add_argument("--out", default=".")
    ap.add_argument("--seconds", type=float, default=900)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--steps", type=int, default=0, help="train exactly this many steps instead of --seconds")
    ap.add_argument("--cache", default="work/prep.pkl", help="prepared-data cache ('' = none)")
    ap.add_argument("--init", default="", help="start from this exported ONNX model's weights (warmstart.py)")
    ap.add_argument("--lr", type=float, default=2e-3, help="peak learning rate")
    ap.add_argument("--batch-seed", type=int, default=0, help="seed of the batch order when not --seed (a second stage sees other screens first)")
    ap.add_argument("--skip-init-eval", action="store_true", help="do not score the --init model on the held-out screens")
    ap.add_argument("--train-screens", type=int, default=N_TRAIN, help="screens to train on (then 300 held-out clean, 200 camera-style)")
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)  # torch starts with one thread here; the machine is shared
    t0 = time.time()
    train_set, val_set, cam_set = prep(args.data, args.seed, args.threads, args.cache, args.train_screens)
    print(f"prep: {len(train_set)} train, {len(val_set)} val, {len(cam_set)} camera-style in {time.time() - t0:.0f} s", flush=True)
    model = Detector(len(CLASSES))
    params = sum(p.numel() for p in model.parameters())
    print(f"model: {params} parameters", flush=True)
    if args.init:
        print(f"warm start: {load_onnx_weights(model, args.init)} convolutions from {args.init}", flush=True)
    info = train(model, train_set, args.seconds, args.batch_seed or args.seed, lr=args.lr, steps=args.steps, frozen_bn=bool(args.init))
    if args.init:
        info["init"] = os.path.basename(args.init)
    info["lr"] = args.lr
    os.makedirs(os.path.join(args.out, "work"), exist_ok=True)
    torch.save(model.state_dict(), os.path.join(args.out, "work", "model.pt"))
    onnx_path = os.path.join(args.out, "piclaw-ui-detector.onnx")
    wrapper = export(model, onnx_path)
    metrics = {
        "model": "piclaw-ui-detector.onnx",
        "architecture": "CenterNet/TTFNet-style, stride-4 heatmap + GIoU box head, YOLOv8 output layout",
        "classes": CLASSES,
        "input": {"width": IN_W, "height": IN_H, "layout": "images [1,3,H,W] RGB 0-1, letterboxed (pad 114, centred)"},
        "output": "output0 [1, 4+classes, (H/4)*(W/4)]: cx, cy, w, h in input pixels, then class scores (peak-filtered)",
        "params": params,
        "onnx_bytes": os.path.getsize(onnx_path),
        "seed": args.seed,
        "train_screens": len(train_set),
        "training": info,
        "thresholds": {"conf": 0.3, "nms_iou": 0.5, "match_iou": 0.5},
        "heldout_synthetic": evaluate_split(wrapper, val_set, CLASSES),
        "heldout_camera_style": evaluate_split(wrapper, cam_set, CLASSES),
        "torch": torch.__version__,
        "threads": args.threads,
    }
    if args.init and not args.skip_init_eval:  # the starting model on the same held-out screens, for comparison
        base = Detector(len(CLASSES))
        load_onnx_weights(base, args.init)
        base_wrapper = ExportWrapper(base.eval(), IN_H, IN_W).eval()
        metrics["init_model"] = {
            "model": os.path.basename(args.init),
            "heldout_synthetic": evaluate_split(base_wrapper, val_set, CLASSES),
            "heldout_camera_style": evaluate_split(base_wrapper, cam_set, CLASSES),
        }
    with open(os.path.join(args.out, "metrics.json"), "w") as f:
        json.dump(metrics, f, indent=2)
    print(json.dumps({k: metrics[k] for k in ("params", "onnx_bytes", "training", "heldout_synthetic", "heldout_camera_style", "init_model") if k in metrics}, indent=1))


if __name__ == "__main__":
    main()
