import type { Blob } from "./ink-blobs.js";

/**
 * Whether a symbol's box holds the ≡ "hamburger" (SF Symbols' `line.3.horizontal`, and every web page's
 * menu toggle): read row by row in luma, exactly three bands of rows whose ink spans the box's width
 * (≥ `SPAN` of it), parted by rows with almost none (≤ `GAP_SPAN`; a partial row touching a bar is its
 * antialiased edge), evenly stacked (centre gaps within
 * `EVEN`), each band thinner than the gap between bar centres. Ink is a pixel differing from the
 * background (the pixels just outside the box's corners) by half the box's strongest difference.
 *
 * Why by rows and not by blobs: the ink mask's local mean joins the bars and the white between them
 * into one blob (the mean is dragged towards the bars), so the pieces say nothing.
 *
 * HIG: the menu button opens navigation; it is a control glyph, never a table cell's leading image, so
 * a title or a logo set right after it (`≡ Inbox`, a site's header) does not make it part of that
 * text's row.
 */
const SPAN = 0.6;
const GAP_SPAN = 0.2;
const EVEN = 0.35;
/** Bars are ≥ 2.5× longer than thick (thin SF bars ~10×, thick web bars ~5×). */
const BAR_ASPECT = 2.5;

/** One bar of a ≡: its rows, `top` inclusive to `bottom` exclusive (the caller's pixel rows). */
export interface MenuBar {
  top: number;
  bottom: number;
}

export function isMenuBars(px: Float32Array, w: number, h: number, box: Blob): boolean {
  return menuBars(px, w, h, box) !== undefined;
}

/** The three bars of a ≡ in `box` (see `isMenuBars`), top to bottom; undefined when it is not one. */
export function menuBars(px: Float32Array, w: number, h: number, box: Blob): MenuBar[] | undefined {
  const { x0, y0, x1, y1 } = box;
  const bw = x1 - x0;
  if (bw < 4 || y1 - y0 < 5) return undefined;
  const at = (x: number, y: number): number =>
    px[Math.min(h - 1, Math.max(0, y)) * w + Math.min(w - 1, Math.max(0, x))] as number;
  const bg = (at(x0 - 2, y0 - 2) + at(x1 + 1, y0 - 2) + at(x0 - 2, y1 + 1) + at(x1 + 1, y1 + 1)) / 4;
  let peak = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) peak = Math.max(peak, Math.abs(at(x, y) - bg));
  if (peak < 20) return undefined;
  const shares: number[] = [];
  for (let y = y0; y < y1; y++) {
    let n = 0;
    for (let x = x0; x < x1; x++) if (Math.abs(at(x, y) - bg) >= peak / 2) n++;
    shares.push(n / bw);
  }
  const bar = (i: number): boolean => (shares[i] ?? 0) >= SPAN;
  const bands: MenuBar[] = [];
  let open = -1;
  for (let i = 0; i <= shares.length; i++) {
    if (bar(i)) {
      if (open < 0) open = i;
      continue;
    }
    if (open >= 0) bands.push({ top: y0 + open, bottom: y0 + i });
    open = -1;
    // Neither a bar nor a gap: not three clean bars — unless it is a bar's antialiased edge, the one
    // row right above or below a bar that the pixel grid cuts through (a 2.5 px bar at 2×).
    const share = shares[i] ?? 0;
    if (share > GAP_SPAN && !bar(i - 1) && !bar(i + 1)) return undefined;
  }
  if (bands.length !== 3) return undefined;
  const mids = bands.map((b) => (b.top + b.bottom) / 2);
  const g1 = (mids[1] as number) - (mids[0] as number);
  const g2 = (mids[2] as number) - (mids[1] as number);
  if (Math.abs(g1 - g2) > EVEN * Math.max(g1, g2)) return undefined;
  const thin = bands.every(
    (b) => b.bottom - b.top < Math.min(g1, g2) && BAR_ASPECT * (b.bottom - b.top) <= bw,
  );
  return thin ? bands : undefined;
}
