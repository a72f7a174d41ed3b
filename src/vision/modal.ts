import type { FracBox } from "../shared/box.js";
import { lumaByte, type RgbImage } from "../shared/image.js";
import type { Candidate } from "./row.js";
import { centreX, centreY } from "./row.js";

/**
 * A system alert or action sheet on screen, and the card it is drawn in.
 *
 * Alerts and action sheets are modal (HIG "Alerts", "Action sheets"): while one is up, only its buttons
 * can be tapped; the screen behind is dimmed and inert. UIKit draws their buttons as full-width rows of
 * the card separated by hairlines, and the card is centred: an alert is 270 pt wide in the middle of
 * the screen, an action sheet spans the width less equal margins. So a stack of two or more hairlines
 * of the same extent, centred on the screen, stopping short of both edges, with a centred text row (a
 * button's title) between each pair, is a modal card's button stack. Table separators, the other long
 * hairlines of iOS, run to the screen's right edge (plain and grouped lists) or start at the text inset
 * and end at the card edge (inset-grouped lists) — never centred with margins on both sides.
 *
 * The card spans the hairlines' extent; it reaches up to where its fill ends (scanned in two columns
 * inside its corners) and down one button below the last hairline — for an action sheet (margins under
 * 4% of the width) to the bottom of the screen, where its Cancel button sits apart.
 */

/** A hairline is at least this fraction of the screen wide. */
const MIN_LINE = 0.5;
/** Two lines have the same extent when their ends agree within this fraction of the width. */
const SAME_END = 0.012;
/** A centred line's midpoint is within this fraction of the width from the screen's middle. */
const CENTRED = 0.012;
/** A line short of an edge by less than this fraction of the width reaches it. */
const EDGE = 0.015;
/** An action sheet's margins are under this fraction of the width (8 pt of 375–430 pt). */
const SHEET_MARGIN = 0.04;
/** A button row's height as a fraction of the screen width: 44 pt of 440 pt … 57 pt of 320 pt, ±10%. */
const BUTTON_MIN = 0.09;
const BUTTON_MAX = 0.195;
/** Columns sampled across the screen: about one per point on every iPhone. */
const COLUMNS = 400;
/** Luma step (levels) of a hairline against the fill above and below it. */
const LINE_STEP = 5;
/** …and the larger of its two steps (above, below) is at most this many times the smaller (`stepsOff`). */
const LINE_STEPS_ALIKE = 3;

/** A button title is centred on the card: its centre within this fraction of the width of the middle. */
const TITLE_CENTRED = 0.015;
/** Luma levels within which a pixel is the card's fill (its blurred material varies a few levels). */
const FILL_MATCH = 12;
/** UIKit's alert width, points (`UIAlertController`, unchanged since iOS 7). */
const ALERT_PT = 270;

/**
 * An alert's width as a fraction of a screen `widthPt` wide, bounded by what the aspect allows: tall
 * (19.5:9, aspect > 2) iPhones are 375–440 pt wide, 16:9 ones 320–414 pt, with a 3% margin.
 */
function alertWidth(aspect: number, widthPt: number): number {
  const [lo, hi] = aspect > 2 ? [375, 440] : [320, 414];
  const pt = Math.max(lo, Math.min(hi, widthPt));
  return (ALERT_PT / pt) * (widthPt > 400 ? 0.97 : 1.03);
}

interface Line {
  y: number;
  l: number;
  r: number;
}

/** The modal card (screen fractions), or undefined when no alert or action sheet is up. */
export function findModalCard(screen: RgbImage, rows: readonly Candidate[]): FracBox | undefined {
  return findModal(screen, rows)?.card;
}

/** A modal card and where its button stack starts (its top hairline), as screen fractions. */
export interface Modal {
  card: FracBox;
  stackTop: number;
}

/** The modal card and its button stack's top (see `findModalCard`), or undefined when none is up. */
export function findModal(screen: RgbImage, rows: readonly Candidate[]): Modal | undefined {
  // A button stack has a centred title in each button, at least two: without them, no pixel scan.
  const centred = rows.filter((r) => r.kind === "text" && Math.abs(centreX(r.box) - 0.5) < TITLE_CENTRED);
  if (centred.length < 2) return undefined;
  const H = screen.height;
  const aspect = H / Math.max(1, screen.width);
  // The stack lies among its titles; its card's top edge no further than a button above the first.
  const reach = BUTTON_MAX * screen.width;
  const y0 = Math.max(0, Math.floor(Math.min(...centred.map((r) => r.box[1])) * H - reach));
  const y1 = Math.min(H, Math.ceil(Math.max(...centred.map((r) => r.box[3])) * H + reach));
  const luma = lumaPlane(screen, y0, y1);
  const W = luma.length / H;
  // A screenshot's hairlines are exact; a camera frame's are spread and noisy: when the exact scan
  // finds no card, the same scan runs on a smoothed plane with a tolerant step test.
  return (
    cardFrom(hairlines(luma, W, y0, y1, false), luma, W, H, y0, aspect, centred, screen.width) ??
    cardFrom(hairlines(smoothRows(luma, W), W, y0, y1, true), luma, W, H, y0, aspect, centred, screen.width)
  );
}

/** The card of the first titled button stack among `all` hairlines (see `findModalCard`). */
function cardFrom(
  all: readonly Line[],
  luma: Uint8Array,
  W: number,
  H: number,
  y0: number,
  aspect: number,
  centred: readonly Candidate[],
  widthPx: number,
): Modal | undefined {
  const lines = all.filter(
    (s) => Math.abs((s.l + s.r) / 2 - W / 2) < CENTRED * W && s.l > EDGE * W && s.r < W - 1 - EDGE * W,
  );
  for (const first of lines) {
    const stack = buttonStack(
      lines.filter((s) => Math.abs(s.l - first.l) < SAME_END * W && Math.abs(s.r - first.r) < SAME_END * W),
      first,
      widthPx,
    );
    if (stack.length < 2) continue;
    const width = (first.r - first.l) / W;
    const sheet = first.l < SHEET_MARGIN * W;
    if (!sheet && (width < alertWidth(aspect, 440) || width > alertWidth(aspect, 320))) continue;
    const titled = stack.slice(1).every((s, i) => {
      const above = stack[i] as Line;
      return centred.some(
        (r) =>
          r.box[0] * W > above.l &&
          r.box[2] * W < above.r &&
          centreY(r.box) * H > above.y &&
          centreY(r.box) * H < s.y,
      );
    });
    if (!titled) continue;
    const top = stack[0] as Line;
    const last = stack[stack.length - 1] as Line;
    const gap = (last.y - top.y) / (stack.length - 1);
    const bottom = sheet ? H : Math.min(H, last.y + 1.3 * gap);
    const cols = [Math.round(top.l + 0.05 * W), Math.round(top.r - 0.05 * W)];
    let cardTop = Math.min(...cols.map((x) => fillTop(luma, W, x, top.y, y0)));
    // An alert always has a title over its buttons (HIG "Alerts"). When what lies right over the first
    // hairline is not the buttons' fill, the edge found is that of content drawn in the card (the
    // location prompt's map): the card goes on above it, up to where its fill ends over the title.
    const fill = (x: number, y: number): number => luma[Math.max(0, Math.min(H - 1, y)) * W + x] ?? 0;
    // Or the edge is one button above the stack (a button row's height; a title alone needs ≥ 1.4: 20 pt
    // insets around a 22 pt line, UIKit `UIAlertController`): the top of a first button under content.
    const content =
      top.y - cardTop < 1.2 * gap ||
      cols.some((x) => Math.abs(fill(x, top.y - 3) - fill(x, top.y + 3)) > FILL_MATCH);
    if (!sheet && content) {
      const titledBetween = (from: number, to: number): boolean =>
        centred.some((r) => centreY(r.box) * H > from && centreY(r.box) * H < to && r.box[0] * W > top.l);
      const above = cols.map((x) => titleTop(luma, W, x, cardTop, y0, fill(x, top.y + 3), titledBetween));
      const found = above.filter((t): t is number => t !== undefined);
      if (found.length) cardTop = Math.min(...found);
    }
    return { card: [top.l / W, cardTop / H, (top.r + 1) / W, bottom / H], stackTop: top.y / H };
  }
  return undefined;
}

/**
 * The screen's luma (Rec. 601 weights in 8-bit fixed point) in rows `y0`…`y1` (others 0), every row but
 * only about one column per point (`COLUMNS` across): a hairline is one pixel tall, never one pixel short.
 */
function lumaPlane(s: RgbImage, y0: number, y1: number): Uint8Array {
  const step = Math.max(1, Math.floor(s.width / COLUMNS));
  const w = Math.floor(s.width / step);
  const out = new Uint8Array(w * s.height);
  const d = s.data;
  for (let y = y0; y < y1; y++)
    for (let x = 0; x < w; x++) out[y * w + x] = lumaByte(d, (y * s.width + x * step) * 3);
  return out;
}

/**
 * `luma` averaged over five neighbouring columns in each row: a horizontal hairline keeps its full step
 * while a camera frame's pixel noise (a few levels, comparable to the line's step) is damped.
 */
function smoothRows(luma: Uint8Array, W: number): Uint8Array {
  const out = new Uint8Array(luma.length);
  for (let row = 0; row < luma.length; row += W) {
    let sum = 0;
    let n = 0;
    for (let x = -2; x < W; x++) {
      if (x + 2 < W) {
        sum += luma[row + x + 2] ?? 0;
        n++;
      }
      if (x - 3 >= 0) {
        sum -= luma[row + x - 3] ?? 0;
        n--;
      }
      if (x >= 0) out[row + x] = Math.round(sum / n);
    }
  }
  return out;
}

/**
 * The run of lines through `first` spaced one button apart: UIKit's alert and action-sheet button rows
 * are 44–57 pt tall, 0.10–0.18 of a 320–440 pt wide screen (`BUTTON_MIN`–`BUTTON_MAX`, with margin);
 * `widthPx` is the screen's width in the rows' pixels.
 */
function buttonStack(same: readonly Line[], first: Line, widthPx: number): Line[] {
  // A hairline a resample spread over two or three rows (a screenshot shown at another size) can be
  // found in each, with ends a few pixels apart: one line (the one through `first`, if any).
  const sorted: Line[] = [];
  for (const s of [...same].sort((a, b) => a.y - b.y)) {
    const prev = sorted[sorted.length - 1];
    if (!prev || s.y - prev.y > 3) sorted.push(s);
    else if (s === first) sorted[sorted.length - 1] = s;
  }
  const apart = (a: Line | undefined, b: Line | undefined): boolean =>
    !!a && !!b && b.y - a.y >= BUTTON_MIN * widthPx && b.y - a.y <= BUTTON_MAX * widthPx;
  let i = sorted.indexOf(first);
  let j = i;
  while (apart(sorted[i - 1], sorted[i])) i--;
  while (apart(sorted[j], sorted[j + 1])) j++;
  return sorted.slice(i, j + 1);
}

/**
 * Horizontal hairlines: rows of pixels that step by ≥ LINE_STEP against the rows two above and below
 * (`tolerant`: or three, at that row or the next), with the same sign (`stepsOff`), over one run (gaps ≤ 2 px) at least MIN_LINE of the width; a line two or
 * three pixels thick is listed once.
 */
function hairlines(luma: Uint8Array, W: number, y0: number, y1: number, tolerant: boolean): Line[] {
  const out: Line[] = [];
  const margin = tolerant ? 4 : 2; // rows the step test reaches above and below
  for (let y = y0 + margin; y < y1 - margin; y++) {
    let runStart = -1;
    let lastHit = -10;
    let best: Line | undefined;
    for (let x = 0; x <= W; x++) {
      let hit = false;
      if (x < W) {
        const p = y * W + x;
        // Tolerant: a line tilted by a pixel over its length (a rectified camera frame) steps off one row
        // or the next, and its blur spreads it (`stepsOff` three rows away).
        // (Written out, not `[p, p + W].some(…)`: an array and a closure a pixel were most of the scan.)
        hit = tolerant
          ? stepsOff(luma, p, W, 2) ||
            stepsOff(luma, p, W, 3) ||
            stepsOff(luma, p + W, W, 2) ||
            stepsOff(luma, p + W, W, 3)
          : stepsOff(luma, p, W, 2);
      }
      if (hit) {
        if (runStart < 0) runStart = x;
        lastHit = x;
      } else if ((x - lastHit === 3 || x === W) && runStart >= 0) {
        if (lastHit - runStart + 1 >= MIN_LINE * W && (!best || lastHit - runStart > best.r - best.l))
          best = { y, l: runStart, r: lastHit };
        runStart = -1;
      }
    }
    if (!best) continue;
    const prev = out[out.length - 1];
    if (prev && best.y - prev.y <= 3 && Math.abs(best.l - prev.l) < 4 && Math.abs(best.r - prev.r) < 4)
      continue;
    out.push(best);
  }
  return out;
}

/**
 * Whether the pixel at `p` steps by ≥ LINE_STEP, with the same sign, against the pixels `d` rows above
 * and below, by about as much: a hairline. `d` = 2 finds a one-pixel line; 3 also finds it when a
 * camera's blur has spread it over two rows (each then only part-way to its full step against rows two
 * away). A separator divides one fill (the card's material above and below it), so its two steps are
 * alike; a JPEG's ringing along the edge between two fills (a dark grouped cell on black) overshoots
 * by a few levels against the near fill and by the whole edge against the far one (`LINE_STEPS_ALIKE`).
 */
function stepsOff(luma: Uint8Array, p: number, W: number, d: number): boolean {
  const c = luma[p] ?? 0;
  const up = c - (luma[p - d * W] ?? 0);
  const down = c - (luma[p + d * W] ?? 0);
  const lo = Math.min(Math.abs(up), Math.abs(down));
  const hi = Math.max(Math.abs(up), Math.abs(down));
  return lo >= LINE_STEP && Math.sign(up) === Math.sign(down) && lo * LINE_STEPS_ALIKE >= hi;
}

/**
 * The first row above `fromY` (down to `y0`, where the plane ends) where column `x` leaves the card's
 * fill (six steps off it in a row).
 */
function fillTop(luma: Uint8Array, W: number, x: number, fromY: number, y0: number): number {
  const col = Math.max(0, Math.min(W - 1, x));
  const fill = luma[Math.max(0, fromY - 3) * W + col] ?? 0;
  let off = 0;
  for (let y = fromY - 3; y > y0; y--) {
    if (Math.abs((luma[y * W + col] ?? 0) - fill) > 20) off++;
    else off = 0;
    if (off >= 6) return y + 6;
  }
  return 0; // no edge in reach: take the card up to the top rather than cut it short
}

/**
 * Above content drawn in a card (its top edge at `fromY`), the top of the card's `fill` in column `x`
 * once a centred title lies between it and the content (`titled`): each run of ≥ 6 rows of the fill
 * further up is tried (ending as `fillTop` does), at most four; undefined when none has a title under it.
 */
function titleTop(
  luma: Uint8Array,
  W: number,
  x: number,
  fromY: number,
  y0: number,
  fill: number,
  titled: (from: number, to: number) => boolean,
): number | undefined {
  const col = Math.max(0, Math.min(W - 1, x));
  let on = 0;
  let tries = 0;
  for (let y = fromY - 1; y > y0 && tries < 4; y--) {
    on = Math.abs((luma[y * W + col] ?? 0) - fill) <= FILL_MATCH ? on + 1 : 0;
    if (on < 6) continue;
    const top = fillTop(luma, W, col, y + 3, y0);
    if (titled(top, fromY)) return top;
    tries++;
    y = top;
    on = 0;
  }
  return undefined;
}
