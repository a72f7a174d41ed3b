import type { RgbImage } from "../shared/image.js";
import type { Candidate } from "./row.js";
import { containerAround, isWideIcon } from "./wide-icons.js";

/**
 * Icon-only buttons drawn as a filled circle with a symbol inside: the clear button of a field
 * (`xmark.circle.fill`, ~22 pt), a "more" disc (`ellipsis.circle.fill`), a message composer's send
 * arrow (~30 pt), toolbar buttons in round platters (44 pt, the HIG's minimum hit target; iOS 26 draws
 * toolbar items as circular "glass" buttons), the Phone app's accept/decline and call buttons (~72–75
 * pt). Apple HIG "Buttons": a button's shape may be a circle (`.buttonBorderShape(.circle)`), its
 * symbol set inside in a contrasting colour. The UI detector often boxes none of them (they are
 * neither a thin outline symbol nor text) and the glyph proposer sees only the symbol when the disc
 * itself is the bar it needs to be flat.
 *
 * So: label the regions of one flat colour (neighbouring pixels within a few levels) at about one pixel
 * per point; a region whose outline, with its holes filled, is a circle of 15–100 pt (the flat fill: on
 * a camera frame the optics' blur eats ~2 pt of a 22 pt clear button's edge all round) (of a 390 pt wide screen: a 78 pt call button on a 320 pt
 * wide iPhone SE is 95) — square box, its
 * filled area that of the inscribed disc (π/4 of the box; a rounded-rect key or a squircle app icon
 * covers more) and every row's span as wide as the circle's chord there — and whose holes (the symbol)
 * cover 3–50% of the disc is a button. Without a symbol it is a switch's knob, a badge or a dot.
 */

/** Working resolution: about one pixel per point (iPhones are 320–430 pt wide). */
const SCREEN_PT = 390;
/** Neighbours within this (per channel, 0–255) are one flat region. */
const FLAT = 6;
/**
 * …and a pixel joins a region only within this of the region's mean colour so far (per channel). On a
 * camera frame the optics blur a disc's edge into a ramp whose steps are each under `FLAT`, so
 * neighbour-to-neighbour growth alone runs from the disc out over its bar; the ramp's far end is as
 * far from the disc's fill as the bar is. Camera noise on a flat fill is σ ≈ 2 levels here, far inside it.
 */
const FROM_MEAN = 12;
const MIN_DISC_PT = 15;
const MAX_DISC_PT = 100;
/** Filled area over the circle's area (π r²). */
const MIN_ROUND = 0.85;
const MAX_ROUND = 1.12;
/** Each row's span within this many pixels (plus 8% of the diameter) of the circle's chord. */
const CHORD_TOL = 1.5;
/** The symbol (holes) as a share of the filled disc. */
const MIN_SYMBOL = 0.03;
const MAX_SYMBOL = 0.5;

interface Work {
  w: number;
  h: number;
  rgb: Uint8Array;
}

/**
 * One pixel per `W / targetW` block: a disc's flat fill survives. From blocks of 3×3 up (a 3× screenshot)
 * the block's mean, so that a JPEG's block noise (a few levels a pixel at quality 70–85, more in the
 * chroma of saturated fills) averages down instead of breaking the fill into regions at `FLAT` — the
 * block's centre pixel kept all of it (a q70 copy of a 1170 px screenshot lost its discs). Blocks of 2×2
 * keep their centre pixel: there the mean blends a disc's anti-aliased rim into whole cells on one side
 * and the chord test (`discShape`) failed (a 3× screenshot shown at 2×, 784 px: its discs were lost).
 */
function downsample(screen: RgbImage, targetW: number): Work {
  const { width: W, height: H, data } = screen;
  const f = Math.max(1, Math.floor(W / targetW));
  const w = Math.floor(W / f);
  const h = Math.floor(H / f);
  const rgb = new Uint8Array(w * h * 3);
  if (f < 3) {
    const half = f >> 1;
    for (let y = 0; y < h; y++) {
      const row = (y * f + half) * W;
      for (let x = 0; x < w; x++) {
        const o = (row + x * f + half) * 3;
        const d = (y * w + x) * 3;
        rgb[d] = data[o] as number;
        rgb[d + 1] = data[o + 1] as number;
        rgb[d + 2] = data[o + 2] as number;
      }
    }
    return { w, h, rgb };
  }
  const n = f * f;
  const acc = new Uint32Array(w * 3);
  for (let y = 0; y < h; y++) {
    acc.fill(0);
    for (let sy = y * f; sy < (y + 1) * f; sy++) {
      const row = sy * W * 3;
      for (let x = 0, o = row; x < w; x++) {
        let r = 0;
        let g = 0;
        let b = 0;
        for (let k = 0; k < f; k++, o += 3) {
          r += data[o] as number;
          g += data[o + 1] as number;
          b += data[o + 2] as number;
        }
        acc[x * 3] = (acc[x * 3] as number) + r;
        acc[x * 3 + 1] = (acc[x * 3 + 1] as number) + g;
        acc[x * 3 + 2] = (acc[x * 3 + 2] as number) + b;
      }
    }
    const d = y * w * 3;
    for (let i = 0; i < w * 3; i++) rgb[d + i] = Math.round((acc[i] as number) / n);
  }
  return { w, h, rgb };
}

/**
 * Whether unlabelled pixel `q` joins a region: flat with its neighbour (within `FLAT` of `pr`, `pg`, `pb`
 * per channel) and near the region's mean so far (within `FROM_MEAN` of `sr / n`, `sg / n`, `sb / n`).
 * The mean test is made in integers, |v·n − s| ≤ FROM_MEAN·n: the same verdict as |v − s / n| ≤ FROM_MEAN
 * in floats (the two sides differ by at least 1/n when they differ, far above the floats' rounding), and
 * no float is boxed on the heap per call (a float mean passed or captured here was ~40 MB of garbage a
 * peek on a 3× screenshot).
 */
function joins(
  rgb: Uint8Array,
  label: Int32Array,
  q: number,
  pr: number,
  pg: number,
  pb: number,
  sr: number,
  sg: number,
  sb: number,
  n: number,
): boolean {
  if (label[q]) return false;
  const r = rgb[q * 3] as number;
  const g = rgb[q * 3 + 1] as number;
  const b = rgb[q * 3 + 2] as number;
  const tol = FROM_MEAN * n;
  return (
    Math.abs(pr - r) <= FLAT &&
    Math.abs(pg - g) <= FLAT &&
    Math.abs(pb - b) <= FLAT &&
    Math.abs(r * n - sr) <= tol &&
    Math.abs(g * n - sg) <= tol &&
    Math.abs(b * n - sb) <= tol
  );
}

/**
 * New `[icon] ""` rows for filled circular buttons with a symbol (see the module comment) whose centre
 * no row of `rows` already covers. Returns only the new rows.
 */
export function proposeDiscButtons(screen: RgbImage, rows: readonly Candidate[]): Candidate[] {
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
    // The region's sums stay in plain integer locals: a closure over them boxed every update on the heap.
    // A labelled neighbour (most of them, inside a region) is skipped before the call to `joins`.
    while (top > 0) {
      const p = stack[--top] as number;
      const x = p % w;
      const y = (p - x) / w;
      const pr = rgb[p * 3] as number;
      const pg = rgb[p * 3 + 1] as number;
      const pb = rgb[p * 3 + 2] as number;
      n++;
      sr += pr;
      sg += pg;
      sb += pb;
      if (x < x0) x0 = x;
      if (y < y0) y0 = y;
      if (x + 1 > x1) x1 = x + 1;
      if (y + 1 > y1) y1 = y + 1;
      if (x > 0 && label[p - 1] === 0 && joins(rgb, label, p - 1, pr, pg, pb, sr, sg, sb, n)) {
        label[p - 1] = id;
        stack[top++] = p - 1;
      }
      if (x + 1 < w && label[p + 1] === 0 && joins(rgb, label, p + 1, pr, pg, pb, sr, sg, sb, n)) {
        label[p + 1] = id;
        stack[top++] = p + 1;
      }
      if (y > 0 && label[p - w] === 0 && joins(rgb, label, p - w, pr, pg, pb, sr, sg, sb, n)) {
        label[p - w] = id;
        stack[top++] = p - w;
      }
      if (y + 1 < h && label[p + w] === 0 && joins(rgb, label, p + w, pr, pg, pb, sr, sg, sb, n)) {
        label[p + w] = id;
        stack[top++] = p + w;
      }
    }
    const found = discButton(label, w, h, id, x0, y0, x1, y1, n, minD, maxD, rows);
    if (found) out.push(found);
  }
  return out;
}

/**
 * The row for region `id` (box `x0`…`y1`, `n` pixels) when it is a disc button no row covers. Apart from
 * the fill loop: its rarely taken branches, inside the loop, deoptimised it region after region, and the
 * unoptimised fill boxed its numbers (~27 MB of garbage a peek).
 */
function discButton(
  label: Int32Array,
  w: number,
  h: number,
  id: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  n: number,
  minD: number,
  maxD: number,
  rows: readonly Candidate[],
): Candidate | undefined {
  {
    const bw = x1 - x0;
    const bh = y1 - y0;
    if (bw < minD || bw > maxD || Math.abs(bw - bh) > 0.12 * bw) return undefined;
    if (n < 0.4 * bw * bh) return undefined;
    const disc = discShape(label, w, id, x0, y0, x1, y1);
    if (!disc) return undefined;
    const symbol = (disc.filled - n) / disc.filled;
    if (symbol < MIN_SYMBOL || symbol > MAX_SYMBOL) return undefined;
    const box: Candidate["box"] = [x0 / w, y0 / h, x1 / w, y1 / h];
    const cx = (x0 + x1) / 2 / w;
    const cy = (y0 + y1) / 2 / h;
    // Rows that are this button already. Not a box the detector drew round a whole card, table row or
    // picture the disc sits in (`wide-icons.ts`), nor the OCR's read of the disc's own symbol (`x` on ⊗).
    const claims = rows.filter(
      (r) =>
        !isSymbolRead(r) &&
        !isWideIcon(r, h / w) &&
        !(r.kind === "icon" && containerAround(r.box, box, SCREEN_PT)),
    );
    const covered = claims.some((r) => cx >= r.box[0] && cx <= r.box[2] && cy >= r.box[1] && cy <= r.box[3]);
    const inside = claims.some(
      (r) =>
        (r.box[0] + r.box[2]) / 2 >= box[0] &&
        (r.box[0] + r.box[2]) / 2 <= box[2] &&
        (r.box[1] + r.box[3]) / 2 >= box[1] &&
        (r.box[1] + r.box[3]) / 2 <= box[3],
    );
    if (covered || inside) return undefined;
    return { kind: "icon", label: "", box, conf: 0.6 };
  }
}

/**
 * What OCR reads off a disc button's symbol as one character: the ✕ of `xmark.circle.fill` (`x`, `×`),
 * the + and − of add/remove discs (`一` in a Chinese line), the ✓ of a done platter, ⋯ (`...`, `…`).
 * A letter or digit other than x is never taken for one (a monogram avatar's `J` is its text).
 */
const SYMBOL_READ = /^(?:[xX×✕✖+＋\-−–—一✓√]|\.{2,3}|…|⋯)$/u;

/** Whether `row` is a text row whose whole label is a disc symbol's read (`SYMBOL_READ`). */
export const isSymbolRead = (row: Candidate): boolean =>
  row.kind === "text" && SYMBOL_READ.test(row.label.trim());

/**
 * The text rows among `rows` that are the OCR's read of a symbol on one of `discs` (their centre inside
 * the disc): the disc's button row replaces them, one target, one row.
 */
export function discSymbolReads(discs: readonly Candidate[], rows: readonly Candidate[]): Set<Candidate> {
  const out = new Set<Candidate>();
  for (const r of rows) {
    if (!isSymbolRead(r)) continue;
    const x = (r.box[0] + r.box[2]) / 2;
    const y = (r.box[1] + r.box[3]) / 2;
    if (discs.some((d) => x >= d.box[0] && x <= d.box[2] && y >= d.box[1] && y <= d.box[3])) out.add(r);
  }
  return out;
}

/** The filled area of region `id` in its box when its outline is a circle (see the module comment). */
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
