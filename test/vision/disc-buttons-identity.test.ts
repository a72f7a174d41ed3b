import { describe, expect, it } from "vitest";
import { realCameraFrame } from "../../src/lab/real/camera.js";
import type { RgbImage } from "../../src/shared/image.js";
import { proposeDiscButtons } from "../../src/vision/disc-buttons.js";
import { decodeRgb, stretchContrast, warpToScreen } from "../../src/vision/rectify.js";
import type { Candidate } from "../../src/vision/row.js";
import { loadRealImage } from "./real-set.js";

/**
 * `proposeDiscButtons` keeps its region sums in integer locals and tests a pixel against the region's
 * mean as |v·n − s| ≤ 12·n instead of |v − s / n| ≤ 12 through a closure (bench/README.md, 2026-11-28
 * session 4, t-perf: the closure boxed ~40 MB of floats a peek). The verdicts must be the same: this is
 * the implementation before that change (its code unchanged, comments left out), and both must propose the same
 * rows on real screens, a camera frame and a noisy synthetic screen.
 */
const SCREEN_PT = 390;
const FLAT = 6;
const FROM_MEAN = 12;
const MIN_DISC_PT = 15;
const MAX_DISC_PT = 100;
const MIN_ROUND = 0.85;
const MAX_ROUND = 1.12;
const CHORD_TOL = 1.5;
const MIN_SYMBOL = 0.03;
const MAX_SYMBOL = 0.5;

interface Work {
  w: number;
  h: number;
  rgb: Uint8Array;
}

/** The grid as `disc-buttons.ts` samples it today (blocks of 3×3 and up averaged, since session 9). */
function downsample(screen: RgbImage, targetW: number): Work {
  const { width: W, height: H, data } = screen;
  const f = Math.max(1, Math.floor(W / targetW));
  const w = Math.floor(W / f);
  const h = Math.floor(H / f);
  const half = f >> 1;
  const rgb = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    const row = (y * f + half) * W;
    for (let x = 0; x < w; x++) {
      const d = (y * w + x) * 3;
      for (let c = 0; c < 3; c++) {
        if (f < 3) {
          rgb[d + c] = data[(row + x * f + half) * 3 + c] as number;
          continue;
        }
        let sum = 0;
        for (let sy = y * f; sy < (y + 1) * f; sy++)
          for (let sx = x * f; sx < (x + 1) * f; sx++) sum += data[(sy * W + sx) * 3 + c] as number;
        rgb[d + c] = Math.round(sum / (f * f));
      }
    }
  }
  return { w, h, rgb };
}

const flat = (rgb: Uint8Array, p: number, q: number): boolean =>
  Math.abs((rgb[p * 3] as number) - (rgb[q * 3] as number)) <= FLAT &&
  Math.abs((rgb[p * 3 + 1] as number) - (rgb[q * 3 + 1] as number)) <= FLAT &&
  Math.abs((rgb[p * 3 + 2] as number) - (rgb[q * 3 + 2] as number)) <= FLAT;

function referenceDiscButtons(screen: RgbImage, rows: readonly Candidate[]): Candidate[] {
  const img = downsample(screen, SCREEN_PT);
  const { w, h, rgb } = img;
  const pt = w / SCREEN_PT;
  const label = new Int32Array(w * h);
  const stack = new Int32Array(w * h);
  const minD = MIN_DISC_PT * pt;
  const maxD = MAX_DISC_PT * pt;
  const out: Candidate[] = [];
  let id = 0;
  for (let start = 0; start < w * h; start++) {
    if (label[start]) continue;
    id++;
    label[start] = id;
    let top = 0;
    stack[top++] = start;
    let x0 = w;
    let y0 = h;
    let x1 = 0;
    let y1 = 0;
    let n = 0;
    let sr = 0;
    let sg = 0;
    let sb = 0;
    // Whether pixel `q` joins the region: flat with its neighbour `p` and near the region's mean so far.
    const joins = (p: number, q: number): boolean =>
      !label[q] &&
      flat(rgb, p, q) &&
      Math.abs((rgb[q * 3] as number) - sr / n) <= FROM_MEAN &&
      Math.abs((rgb[q * 3 + 1] as number) - sg / n) <= FROM_MEAN &&
      Math.abs((rgb[q * 3 + 2] as number) - sb / n) <= FROM_MEAN;
    while (top > 0) {
      const p = stack[--top] as number;
      const x = p % w;
      const y = (p - x) / w;
      n++;
      sr += rgb[p * 3] as number;
      sg += rgb[p * 3 + 1] as number;
      sb += rgb[p * 3 + 2] as number;
      if (x < x0) x0 = x;
      if (y < y0) y0 = y;
      if (x + 1 > x1) x1 = x + 1;
      if (y + 1 > y1) y1 = y + 1;
      if (x > 0 && joins(p, p - 1)) {
        label[p - 1] = id;
        stack[top++] = p - 1;
      }
      if (x + 1 < w && joins(p, p + 1)) {
        label[p + 1] = id;
        stack[top++] = p + 1;
      }
      if (y > 0 && joins(p, p - w)) {
        label[p - w] = id;
        stack[top++] = p - w;
      }
      if (y + 1 < h && joins(p, p + w)) {
        label[p + w] = id;
        stack[top++] = p + w;
      }
    }
    const bw = x1 - x0;
    const bh = y1 - y0;
    if (bw < minD || bw > maxD || Math.abs(bw - bh) > 0.12 * bw) continue;
    if (n < 0.4 * bw * bh) continue;
    const disc = discShape(label, w, id, x0, y0, x1, y1);
    if (!disc) continue;
    const symbol = (disc.filled - n) / disc.filled;
    if (symbol < MIN_SYMBOL || symbol > MAX_SYMBOL) continue;
    const box: Candidate["box"] = [x0 / w, y0 / h, x1 / w, y1 / h];
    const cx = (x0 + x1) / 2 / w;
    const cy = (y0 + y1) / 2 / h;
    const covered = rows.some((r) => cx >= r.box[0] && cx <= r.box[2] && cy >= r.box[1] && cy <= r.box[3]);
    const inside = rows.some(
      (r) =>
        (r.box[0] + r.box[2]) / 2 >= box[0] &&
        (r.box[0] + r.box[2]) / 2 <= box[2] &&
        (r.box[1] + r.box[3]) / 2 >= box[1] &&
        (r.box[1] + r.box[3]) / 2 <= box[3],
    );
    if (covered || inside) continue;
    out.push({ kind: "icon", label: "", box, conf: 0.6 });
  }
  return out;
}

function discShape(
  label: Int32Array,
  w: number,
  id: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): { filled: number } | undefined {
  const r = (x1 - x0 + (y1 - y0)) / 4;
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  const tol = CHORD_TOL + 0.08 * 2 * r;
  let filled = 0;
  for (let y = y0; y < y1; y++) {
    let left = -1;
    let right = -1;
    for (let x = x0; x < x1; x++)
      if (label[y * w + x] === id) {
        if (left < 0) left = x;
        right = x + 1;
      }
    // The chord anywhere within this pixel row: near the top and bottom it changes fast.
    const dy = Math.abs(y + 0.5 - cy);
    const chord = (d: number): number => 2 * Math.sqrt(Math.max(0, r * r - d * d));
    const span = left < 0 ? 0 : right - left;
    if (span < chord(dy + 0.5) - tol || span > chord(Math.max(0, dy - 0.5)) + tol) return undefined;
    if (left >= 0 && Math.abs((left + right) / 2 - cx) > tol) return undefined;
    filled += span;
  }
  const round = filled / (Math.PI * r * r);
  return round >= MIN_ROUND && round <= MAX_ROUND ? { filled } : undefined;
}

/** A noisy screen with filled discs of several sizes and colours, a symbol cut into each. */
function synthetic(): RgbImage {
  const width = 1170;
  const height = 2532;
  const data = Buffer.alloc(width * height * 3);
  let seed = 11;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return (seed >>> 16) / 65536;
  };
  for (let i = 0; i < data.length; i++) data[i] = 235 + Math.floor(rnd() * 7);
  for (let k = 0; k < 12; k++) {
    const r = 30 + Math.floor(rnd() * 100);
    const cx = r + Math.floor(rnd() * (width - 2 * r));
    const cy = r + Math.floor(rnd() * (height - 2 * r));
    // Blurred like a camera's optics: outside the circle the fill rises one level every two pixels (a
    // step under the flat-neighbour tolerance) for 40 levels, then the page; where a region stops on
    // that ramp is decided by its distance from the region's mean alone.
    const grey = 60 + Math.floor(rnd() * 100);
    for (let y = Math.max(0, cy - r - 80); y < Math.min(height, cy + r + 80); y++)
      for (let x = Math.max(0, cx - r - 80); x < Math.min(width, cx + r + 80); x++) {
        const d = Math.hypot(x - cx, y - cy);
        if (d > r + 80) continue;
        const o = (y * width + x) * 3;
        const symbol = Math.abs(x - cx) < r / 6 && Math.abs(y - cy) < r / 2;
        const v = symbol ? 250 : grey + Math.max(0, Math.floor((d - r) / 2));
        data[o] = v;
        data[o + 1] = v;
        data[o + 2] = v;
      }
  }
  return { width, height, channels: 3, data };
}

describe("proposeDiscButtons against its former formulation", () => {
  const NAMES = [
    "rb-callkeep-incoming.png",
    "rb-autoglm-shortcuts-en.png",
    "rd-zkytech-scriptable-list.jpg",
    "rb-universekb-t9-qwerty.png",
    "ra-cowabunga-home.png",
    "rc-netnewswire-feeds-dark.png",
  ];
  for (const name of NAMES)
    it(`proposes the same rows on ${name}`, async () => {
      const screen = await loadRealImage(name);
      // A text row (not a symbol's one-character read, which claims no disc since h-icons) over part of the screen.
      const rows: Candidate[] = [{ kind: "text", label: "Mail", box: [0.1, 0.1, 0.5, 0.15], conf: 0.9 }];
      const want = referenceDiscButtons(screen, rows);
      expect(proposeDiscButtons(screen, rows)).toEqual(want);
    });

  it("proposes the same rows on a camera frame of a screen", async () => {
    const { readFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { REAL_SET_DIR } = await import("./real-set.js");
    const bytes = readFileSync(join(REAL_SET_DIR, "images", "rb-callkeep-incoming.png"));
    const shot = await realCameraFrame(bytes, { harsh: false, seed: 7 });
    const screen = stretchContrast(warpToScreen(await decodeRgb(shot.frame), shot.screenToCamera, 585, 1266));
    expect(proposeDiscButtons(screen, [])).toEqual(referenceDiscButtons(screen, []));
  });

  it("proposes the same rows on a noisy synthetic screen, and some", () => {
    const screen = synthetic();
    const want = referenceDiscButtons(screen, []);
    expect(want.length).toBeGreaterThan(3);
    expect(proposeDiscButtons(screen, [])).toEqual(want);
  });
});
