"""Camera-photo treatment for synthetic screens, and the letterbox the runtime uses.

At run time the detector sees the phone screen *rectified from a camera frame*: a little residual
perspective, lens blur, sensor noise, exposure and white-balance drift, a glare spot from room
lights, moire from the panel's pixel grid beating against the sensor, vignetting and JPEG artefacts.
`camera_treatment` fakes all of these on a flat render and moves the boxes with the warp.
`letterbox` must match src/vision/detector/preprocess.ts exactly (scale to fit, centre, pad 114).
"""
import io

import numpy as np
from PIL import Image, ImageFilter

PAD_VALUE = 114


def letterbox_geometry(w, h, in_w, in_h):
    """Scale and padding that fit a w x h image into in_w x in_h keeping aspect, centred."""
    s = min(in_w / w, in_h / h)
    nw, nh = max(1, round(w * s)), max(1, round(h * s))
    return s, nw, nh, (in_w - nw) // 2, (in_h - nh) // 2


def letterbox(img, boxes, in_w, in_h, sx=1.0, sy=1.0):
    """Resize a PIL image into the model input (optional aspect jitter sx/sy); boxes move along."""
    w, h = img.size
    w2, h2 = max(1, round(w * sx)), max(1, round(h * sy))
    s, nw, nh, px, py = letterbox_geometry(w2, h2, in_w, in_h)
    small = img.resize((nw, nh), Image.BILINEAR, reducing_gap=2.0)
    canvas = Image.new("RGB", (in_w, in_h), (PAD_VALUE,) * 3)
    canvas.paste(small, (px, py))
    b = boxes.copy()
    if len(b):
        b[:, [0, 2]] = b[:, [0, 2]] * sx * (nw / w2) + px
        b[:, [1, 3]] = b[:, [1, 3]] * sy * (nh / h2) + py
    return canvas, b


def _perspective_coeffs(src, dst):
    """Coefficients for PIL's PERSPECTIVE transform mapping output points dst to input points src."""
    a = []
    for (x, y), (u, v) in zip(dst, src):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y])
    return np.linalg.solve(np.array(a, dtype=np.float64), np.array(src, dtype=np.float64).reshape(8))


def _warp_points(pts, src, dst):
    """Forward map points from input (src quad) to output (dst quad) space."""
    c = _perspective_coeffs(dst, src)  # maps src -> dst
    x, y = pts[:, 0], pts[:, 1]
    den = c[6] * x + c[7] * y + 1
    return np.stack([(c[0] * x + c[1] * y + c[2]) / den, (c[3] * x + c[4] * y + c[5]) / den], axis=1)


def camera_treatment(img, boxes, rng):
    """Apply the photo look to a flat render (PIL RGB); returns the new image and moved boxes."""
    w, h = img.size
    # Residual perspective after rectification: corners off by up to ~1.5% of the size.
    j = 0.015
    src = [(0, 0), (w, 0), (w, h), (0, h)]
    dst = [(x + rng.uniform(-j, j) * w, y + rng.uniform(-j, j) * h) for x, y in src]
    bezel = tuple(int(v) for v in rng.integers(0, 40, 3))
    img = img.transform((w, h), Image.PERSPECTIVE, _perspective_coeffs(src, dst), Image.BILINEAR, fillcolor=bezel)
    if len(boxes):
        corners = np.stack(
            [boxes[:, [0, 1]], boxes[:, [2, 1]], boxes[:, [2, 3]], boxes[:, [0, 3]]], axis=1
        ).reshape(-1, 2)
        moved = _warp_points(corners, src, dst).reshape(-1, 4, 2)
        boxes = np.concatenate([moved.min(axis=1), moved.max(axis=1)], axis=1)
        boxes[:, [0, 2]] = boxes[:, [0, 2]].clip(0, w)
        boxes[:, [1, 3]] = boxes[:, [1, 3]].clip(0, h)
    # Optics: defocus / motion softness.
    img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.8)))
    a = np.asarray(img, dtype=np.float32) / 255.0
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    # Exposure, contrast and white balance drift.
    a = a * rng.uniform(0.7, 1.2) * rng.uniform(0.88, 1.12, 3).astype(np.float32)
    a = (a - 0.5) * rng.uniform(0.75, 1.1) + 0.5 + rng.uniform(-0.05, 0.08)
    # Vignetting.
    r2 = ((xx - w / 2) / w) ** 2 + ((yy - h / 2) / h) ** 2
    a *= (1 - rng.uniform(0.0, 0.6) * r2)[..., None]
    # Moire: a faint beat pattern from the panel grid against the sensor.
    if rng.random() < 0.7:
        f = rng.uniform(0.05, 0.35)
        ang = rng.uniform(0, np.pi)
        phase = np.cos(ang) * xx + np.sin(ang) * yy
        a *= (1 + rng.uniform(0.02, 0.08) * np.sin(2 * np.pi * f * phase))[..., None]
    # Glare: a soft bright spot from a lamp reflected in the glass.
    if rng.random() < 0.6:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        rad = rng.uniform(0.1, 0.45) * w
        spot = np.exp(-(((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * rad * rad)))
        a += (rng.uniform(0.15, 0.6) * spot)[..., None]
    # Sensor noise.
    a += rng.normal(0, rng.uniform(0.005, 0.03), a.shape).astype(np.float32)
    img = Image.fromarray((a.clip(0, 1) * 255).astype(np.uint8))
    buf = io.BytesIO()
    img.save(buf, format="JPEG", quality=int(rng.integers(35, 90)))
    buf.seek(0)
    return Image.open(buf).convert("RGB"), boxes
