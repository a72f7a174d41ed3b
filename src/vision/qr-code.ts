import { luma, type RgbImage } from "../shared/image.js";
import { type FinderPattern, findFinderPatterns } from "./qr-finders.js";
import type { Candidate } from "./row.js";
import { boxWidth, centreX, centreY } from "./row.js";

/**
 * A QR code is one picture, not a row per blob of its modules.
 *
 * Authenticator and wallet apps, payment and login screens, Wi-Fi and contact sharing and device
 * pairing show QR codes. A QR code is not a tap target and its modules are not text, yet the detector
 * boxes its three finder patterns as icons and OCR may read module clusters as characters. This finds
 * the code from its standard structure (ISO/IEC 18004): three finder patterns (`qr-finders.ts`) of one
 * module size at three corners of a square — the corner one equally far from the other two, at a right
 * angle — `21 + 4·(version − 1)` modules on a side, so the corner-to-corner centre distance is that less
 * 7 modules (14 for version 1, up to 170 for version 40); and between the corner pattern and each other
 * one, along row and column 6, a timing pattern of alternating modules (§6.3.5). Rows whose centre lies
 * in the code (the square its finders span, plus one module: the quiet zone's first) are dropped.
 * Nothing is listed for the code: the listing has no kind for a picture that is not a control (a
 * `[image] "QR code"` row would be the way to say it is there).
 *
 * Not covered: Micro QR (one finder pattern), rMQR, Data Matrix (an L-shaped solid border and a clock
 * track), Aztec (one central bullseye), PDF417 and other linear or stacked codes, styled codes whose
 * finder patterns are drawn as dots or rounded rings, and a code cut by the screen's edge (fewer than
 * three finders visible).
 */

/** A found code: the corner finder's centre, the two others', and the module (pixels). */
export interface QrCode {
  corner: FinderPattern;
  ends: readonly [FinderPattern, FinderPattern];
  module: number;
}

/** The three finder patterns' modules agree within this ratio (largest / smallest): blur moves edges. */
const MODULE_AGREE = 1.4;
/** The two sides from the corner agree in length within this fraction. */
const SIDE_AGREE = 0.15;
/** |cos| of the corner's angle under this (~81–99°). */
const RIGHT_ANGLE = 0.15;
/**
 * Centre-to-centre distance in modules: version 1's 14 (a little less for a blurred module estimate) to
 * version 40's 170.
 */
const SIDE_MODULES = [12, 180] as const;
/**
 * The timing pattern has `side − 9` alternating modules, so `side − 10` changes; at least this share of
 * them must be seen (blur merges some at 2–3 px modules; an empty band between three round targets
 * shows none).
 */
const TIMING_SHARE = 0.5;
/** The code's area reaches this many modules beyond a finder's centre: 3.5 to its edge, 1 of quiet zone. */
const AREA_REACH = 4.5;
/** A row wider than this many times the code's area is a container around it (a card), not part of it. */
const CONTAINER = 1.2;

/** QR codes in `screen` (each found once). */
export function findQrCodes(screen: RgbImage, finders = findFinderPatterns(screen)): QrCode[] {
  const codes: QrCode[] = [];
  const used = new Set<FinderPattern>();
  const n = finders.length;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++)
      for (let k = j + 1; k < n; k++) {
        const trio = [finders[i], finders[j], finders[k]] as FinderPattern[];
        if (trio.some((f) => used.has(f))) continue;
        const code = asCode(screen, trio);
        if (!code) continue;
        codes.push(code);
        for (const f of trio) used.add(f);
      }
  return codes;
}

/** The code three finder patterns make, if their geometry and timing patterns say they make one. */
function asCode(screen: RgbImage, trio: FinderPattern[]): QrCode | undefined {
  const mods = trio.map((f) => f.module);
  if (Math.max(...mods) > MODULE_AGREE * Math.min(...mods)) return undefined;
  if (trio.some((f) => f.dark !== trio[0]?.dark)) return undefined;
  const module = mods.reduce((s, v) => s + v, 0) / 3;
  for (let c = 0; c < 3; c++) {
    const corner = trio[c] as FinderPattern;
    const a = trio[(c + 1) % 3] as FinderPattern;
    const b = trio[(c + 2) % 3] as FinderPattern;
    const la = Math.hypot(a.x - corner.x, a.y - corner.y);
    const lb = Math.hypot(b.x - corner.x, b.y - corner.y);
    if (Math.abs(la - lb) > SIDE_AGREE * Math.max(la, lb)) continue;
    const cos = ((a.x - corner.x) * (b.x - corner.x) + (a.y - corner.y) * (b.y - corner.y)) / (la * lb);
    if (Math.abs(cos) > RIGHT_ANGLE) continue;
    const side = (la + lb) / 2 / module;
    if (side < SIDE_MODULES[0] || side > SIDE_MODULES[1]) continue;
    if (!timing(screen, corner, a, b, module) || !timing(screen, corner, b, a, module)) continue;
    return { corner, ends: [a, b], module };
  }
  return undefined;
}

/**
 * Whether the band from `corner` to `end`, 3 modules in towards `other` (the timing row or column runs
 * along the finders' inner edges), alternates as a timing pattern does.
 */
function timing(
  screen: RgbImage,
  corner: FinderPattern,
  end: FinderPattern,
  other: FinderPattern,
  m: number,
): boolean {
  const { width: W, height: H, data } = screen;
  const len = Math.hypot(end.x - corner.x, end.y - corner.y);
  const ux = (end.x - corner.x) / len;
  const uy = (end.y - corner.y) / len;
  const ol = Math.hypot(other.x - corner.x, other.y - corner.y);
  const ox = ((other.x - corner.x) / ol) * 3 * m;
  const oy = ((other.y - corner.y) / ol) * 3 * m;
  // The modules of the band between the finders' separators: from 4.5 modules past one centre to 4.5
  // before the other; luma along it, thresholded at its own mid-grey.
  const from = 4.5 * m;
  const to = len - 4.5 * m;
  if (to <= from) return false;
  const values: number[] = [];
  for (let s = from; s <= to; s += 0.5) {
    const x = Math.round(corner.x + ox + ux * s);
    const y = Math.round(corner.y + oy + uy * s);
    if (x < 0 || y < 0 || x >= W || y >= H) return false;
    values.push(luma(data, (y * W + x) * 3));
  }
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  if (hi - lo < 48) return false;
  const mid = (lo + hi) / 2;
  let changes = 0;
  for (let i = 1; i < values.length; i++)
    if ((values[i - 1] ?? 0) < mid !== (values[i] ?? 0) < mid) changes++;
  const expected = len / m - 10;
  return changes >= Math.max(2, TIMING_SHARE * expected) && changes <= 2 * expected + 2;
}

/** Whether pixel (x, y) lies in `code`'s area (its finders' square plus one module). */
export function inQrCode(code: QrCode, x: number, y: number): boolean {
  const { corner: c, ends } = code;
  const [a, b] = ends;
  // (x, y) − corner = s·(a − corner) + t·(b − corner), solved for s and t.
  const ax = a.x - c.x;
  const ay = a.y - c.y;
  const bx = b.x - c.x;
  const by = b.y - c.y;
  const det = ax * by - ay * bx;
  if (det === 0) return false;
  const px = x - c.x;
  const py = y - c.y;
  const s = (px * by - py * bx) / det;
  const t = (ax * py - ay * px) / det;
  const rs = (AREA_REACH * code.module) / Math.hypot(ax, ay);
  const rt = (AREA_REACH * code.module) / Math.hypot(bx, by);
  return s >= -rs && s <= 1 + rs && t >= -rt && t <= 1 + rt;
}

/** Width in pixels of `code`'s area along its sides' x extent (its axis-aligned bounding box). */
function areaWidth(code: QrCode): number {
  const { corner: c, ends } = code;
  const xs = [c.x, ends[0].x, ends[1].x, ends[0].x + ends[1].x - c.x];
  return Math.max(...xs) - Math.min(...xs) + 2 * AREA_REACH * code.module;
}

/**
 * The rows of `rows` that lie in a QR code found in `screen` (centre in its area, not wider than it):
 * its finder patterns and module clusters boxed as icons, read as text.
 */
export function rowsInQrCodes(screen: RgbImage, rows: readonly Candidate[]): Set<Candidate> {
  const out = new Set<Candidate>();
  const codes = findQrCodes(screen);
  if (codes.length === 0) return out;
  const { width: W, height: H } = screen;
  for (const r of rows)
    for (const code of codes)
      if (
        inQrCode(code, centreX(r.box) * W, centreY(r.box) * H) &&
        boxWidth(r.box) * W <= CONTAINER * areaWidth(code)
      )
        out.add(r);
  return out;
}
