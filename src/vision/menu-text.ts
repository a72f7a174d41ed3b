import type { RgbImage } from "../shared/image.js";
import { luma } from "../shared/image.js";
import { menuBars } from "./menu-bars.js";
import type { Candidate } from "./row.js";

/**
 * The ≡ menu glyph read as text. The recogniser has no `≡`/`☰` of its own worth trusting on a 20 pt
 * symbol: on Chinese pages it reads the three bars as the numeral `三` (PP-OCR's nearest character),
 * elsewhere as `≡` or `=`-like marks, and the row reaches the listing as `[text] "三"` — a word an agent
 * would never tap for a menu. SF Symbols' `line.3.horizontal` (and every web page's menu toggle) is three
 * bars of one length, evenly stacked (`menu-bars.ts`); the character 三 is drawn with three strokes of
 * different lengths (the middle one shortest, the bottom one longest, in PingFang, Hiragino and Source
 * Han alike), so the bars' extents tell the two apart.
 *
 * A text row whose whole label is one such character becomes `[button] "menu"` when its ink, found
 * within the row's box, is three bars (`menuBars`) whose left and right ends agree within `SAME_END`
 * of the glyph's width.
 */
const MENU_READS = /^[三≡☰=〓]$/u;
/** How far one bar's end may sit from another's, in glyph widths (antialiasing: ≤ 1 px of a 20 px glyph). */
const SAME_END = 0.08;

export function menuGlyphReads(screen: RgbImage, rows: readonly Candidate[]): Candidate[] {
  return rows.map((r) =>
    r.kind === "text" && MENU_READS.test(r.label.trim()) && threeEqualBars(screen, r.box)
      ? { kind: "button", label: "menu", box: r.box, conf: r.conf }
      : r,
  );
}

/** Whether the ink inside `box` (fractions of the screen) is three bars of equal extent. */
function threeEqualBars(screen: RgbImage, box: Candidate["box"]): boolean {
  const { width: W, height: H } = screen;
  // The box and 3 px around it (menuBars reads the background just outside the glyph's corners).
  const x0 = Math.max(0, Math.floor(box[0] * W) - 3);
  const y0 = Math.max(0, Math.floor(box[1] * H) - 3);
  const x1 = Math.min(W, Math.ceil(box[2] * W) + 3);
  const y1 = Math.min(H, Math.ceil(box[3] * H) + 3);
  const w = x1 - x0;
  const h = y1 - y0;
  if (w < 8 || h < 8) return false;
  const px = new Float32Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) px[y * w + x] = luma(screen.data, ((y0 + y) * W + x0 + x) * 3);
  const at = (x: number, y: number): number => px[y * w + x] as number;
  const bg = (at(0, 0) + at(w - 1, 0) + at(0, h - 1) + at(w - 1, h - 1)) / 4;
  let peak = 0;
  for (let i = 0; i < px.length; i++) peak = Math.max(peak, Math.abs((px[i] as number) - bg));
  if (peak < 20) return false;
  const ink = (x: number, y: number): boolean => Math.abs(at(x, y) - bg) >= peak / 2;
  // The glyph's tight box, kept 2 px inside the crop so its corners' outside is the background.
  let gx0 = w;
  let gy0 = h;
  let gx1 = -1;
  let gy1 = -1;
  for (let y = 2; y < h - 2; y++)
    for (let x = 2; x < w - 2; x++)
      if (ink(x, y)) {
        gx0 = Math.min(gx0, x);
        gy0 = Math.min(gy0, y);
        gx1 = Math.max(gx1, x + 1);
        gy1 = Math.max(gy1, y + 1);
      }
  if (gx1 < 0) return false;
  const glyph = { x0: gx0, y0: gy0, x1: gx1, y1: gy1, n: 0 };
  const bars = menuBars(px, w, h, glyph);
  if (!bars) return false;
  // Each bar's ends: its widest ink row (the middle of the bar, past its antialiased edges).
  const ends = bars.map((bar) => {
    let widest: [number, number] = [0, 0];
    for (let y = bar.top; y < bar.bottom; y++) {
      let l = -1;
      let r = -1;
      for (let x = gx0; x < gx1; x++)
        if (ink(x, y)) {
          if (l < 0) l = x;
          r = x + 1;
        }
      if (r - l > widest[1] - widest[0]) widest = [l, r];
    }
    return widest;
  });
  const tol = SAME_END * (gx1 - gx0);
  const lefts = ends.map((e) => e[0]);
  const rights = ends.map((e) => e[1]);
  return Math.max(...lefts) - Math.min(...lefts) <= tol && Math.max(...rights) - Math.min(...rights) <= tol;
}
