import { type FracBox, iou } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import type { Candidate } from "./row.js";
import { boxHeight, boxWidth, centreX, centreY, contains } from "./row.js";

/**
 * Chat bubbles, found from the rows they hold: what a messages screen is made of.
 *
 * A chat app draws each message as a bubble — a rounded rectangle of one fill on the page's background,
 * its text inset by a padding (Apple's Messages; MessageKit `MessageContainerView`, JSQMessages
 * `JSQMessagesBubbleImage`: a stretchable rounded image behind the message label). Received messages are
 * aligned to the leading side and sent ones to the trailing side, each as wide as its text up to about
 * three quarters of the screen (UIKit `UITextView` sized to fit, MessageKit `messageLabelInsets`), so a
 * column of bubbles shares one edge and has a ragged other edge. That shape sets a conversation apart
 * from the other filled boxes on iOS screens: a grouped table's cells and a search field span the width
 * (HIG "Lists and tables": inset-grouped cells keep 16–20 pt margins), and a row of pills or segments
 * lies on one line.
 *
 * A bubble is found around a row by walking out from the padding before the row's first glyph: along
 * the row to the bubble's leading edge, up and down that padding column to its top and bottom, and
 * along the top padding to its trailing edge, each walk ending where the fill ends; beyond each end
 * lies one other colour (the page).
 */

/** A bubble: its box (screen fractions) and fill (RGB). */
export interface Bubble {
  box: FracBox;
  fill: readonly number[];
}

/** A conversation: its bubbles, and the leading/trailing edge of its received/sent column. */
export interface Chat {
  bubbles: readonly Bubble[];
  /** Leading edge (fraction of the width) of the received column, if one was found. */
  leading?: number | undefined;
  /** Trailing edge of the sent column, if one was found. */
  trailing?: number | undefined;
}

/** The padding column sits this fraction of the width (~3 pt) before a row's first glyph. */
const PAD = 0.008;
/** … and at least this many pixels (a 1× screenshot's glyphs' antialiasing). */
const MIN_PAD_PX = 3;
/** A fill's pixels lie within this many levels (max channel) of its mean: JPEG and camera noise. */
const FILL_TOL = 12;
/** … but for this share of the padding column (a camera frame's noise). */
const SEED_NOISE = 0.1;
/** The page differs from the fill by at least this much (max channel): a visible edge. */
const EDGE = 14;
/** The page's colour is met within this fraction of the width past a bubble's edge (its antialiasing). */
const BEYOND = 0.006;
/** The page beyond a bubble's two sides is one colour within this (max channel). */
const SAME_PAGE = 30;
/** Bubbles found from two rows are one when their boxes overlap this much (IoU). */
const SAME_BUBBLE = 0.8;
/** Rows on a bubble's line walked past to its trailing edge, at most. */
const MAX_HOPS = 8;
/** A bubble is at most this fraction of the width (a message, not a full-width cell or field). */
const MAX_WIDTH = 0.8;
/** … and at least this tall for its row (a bubble pads its text above and below). */
const PADDED = 1.2;
/** Bubbles of one column share an edge within this fraction of the width … */
const ALIGNED = 0.015;
/** … and differ in width by at least this much (ragged: each is as wide as its message). */
const RAGGED = 0.04;
/**
 * Fills of one column's bubbles differ by less than this (max channel): Messages' blue drifts ~15 levels
 * down the screen (its gradient), while a pale input field next to grey bubbles differs by ~18.
 */
const SAME_FILL = 16;

/** The conversation on `screen`, if its rows sit in at least two bubbles of one column. */
export function findChat(screen: RgbImage, rows: readonly Candidate[]): Chat | undefined {
  const found: Bubble[] = [];
  for (const r of rows) {
    if (r.kind !== "text" && r.kind !== "icon") continue;
    const b = bubbleAround(screen, r.box, rows);
    // Every line of a bubble finds it again; a contact card's initials find their own square in it.
    if (b && !found.some((o) => iou(o.box, b.box) > SAME_BUBBLE)) found.push(b);
  }
  // Messages stack: each bubble has its lines to itself. Boxes side by side are buttons or pills.
  const stacked = found.filter((b) => !found.some((o) => o !== b && sideBySide(o.box, b.box)));
  const texts = rows.filter((r) => r.kind === "text");
  const holdsText = (b: Bubble): boolean =>
    texts.some((t) => contains(b.box, centreX(t.box), centreY(t.box)));
  const left = column(stacked, (b) => b.box[0], holdsText);
  const right = column(stacked, (b) => b.box[2], holdsText);
  if (!left && !right) return undefined;
  const bubbles = [...new Set([...(left?.bubbles ?? []), ...(right?.bubbles ?? [])])];
  return { bubbles, leading: left?.edge, trailing: right?.edge };
}

/**
 * The largest set of bubbles sharing the edge `edge` of one fill, with ragged widths, at least two of
 * them holding text (messages are written).
 */
function column(
  found: readonly Bubble[],
  edge: (b: Bubble) => number,
  holdsText: (b: Bubble) => boolean,
): { bubbles: Bubble[]; edge: number } | undefined {
  let best: Bubble[] = [];
  for (const b of found) {
    const alike = found.filter(
      (o) => Math.abs(edge(o) - edge(b)) <= ALIGNED && distance(o.fill, b.fill) < SAME_FILL,
    );
    const widths = alike.map((o) => boxWidth(o.box));
    if (Math.max(...widths) - Math.min(...widths) < RAGGED) continue;
    if (alike.length > best.length) best = alike;
  }
  if (best.filter(holdsText).length < 2) return undefined;
  const edges = best.map(edge).sort((a, c) => a - c);
  return { bubbles: best, edge: edges[Math.floor(edges.length / 2)] ?? 0 };
}

/** The bubble around `box` (screen fractions), if the row sits in one (see the module comment). */
export function bubbleAround(
  screen: RgbImage,
  box: FracBox,
  rows: readonly Candidate[] = [],
): Bubble | undefined {
  const { width: W, height: H } = screen;
  const px = (x: number, y: number): number[] => pixel(screen, x, y);
  const sx = Math.floor(box[0] * W - Math.max(MIN_PAD_PX, PAD * W)); // the padding column
  const y0 = Math.ceil(box[1] * H);
  const y1 = Math.floor(box[3] * H);
  const cy = Math.round(((box[1] + box[3]) / 2) * H);
  if (sx < 2 || y1 <= y0) return undefined;
  // The fill: the padding column beside the row's middle half, one colour.
  const seed: number[][] = [];
  for (let y = Math.round(y0 + (y1 - y0) / 4); y <= y1 - (y1 - y0) / 4; y++) seed.push(px(sx, y));
  const fill = mean(seed);
  if (seed.filter((c) => distance(c, fill) > FILL_TOL).length > SEED_NOISE * seed.length) return undefined;
  const d = Math.max(3, Math.round(BEYOND * W));
  /**
   * Steps from (x, y) by (dx, dy) while the pixels stay on the fill (followed as it drifts, for the
   * gradient of Messages' blue); the last pixel on it, and whether the page beyond differs (an edge).
   */
  const walk = (
    x: number,
    y: number,
    dx: number,
    dy: number,
  ): { at: number; edge: boolean; page: number[] } => {
    // The reference colour in three locals and each pixel read in place (as `pixel` reads it, clamped and
    // rounded): a walk steps over many pixels, and an array per step was most of the pass's garbage.
    let r0 = fill[0] ?? 0;
    let r1 = fill[1] ?? 0;
    let r2 = fill[2] ?? 0;
    const data = screen.data;
    let cx = x;
    let cy2 = y;
    for (;;) {
      const nx = cx + dx;
      const ny = cy2 + dy;
      if (nx < 0 || ny < 0 || nx >= W || ny >= H)
        return { at: dx ? cx : cy2, edge: false, page: [r0, r1, r2] };
      const i =
        (Math.min(H - 1, Math.max(0, Math.round(ny))) * W + Math.min(W - 1, Math.max(0, Math.round(nx)))) * 3;
      const c0 = data[i] ?? 0;
      const c1 = data[i + 1] ?? 0;
      const c2 = data[i + 2] ?? 0;
      if (Math.max(Math.abs(c0 - r0), Math.abs(c1 - r1), Math.abs(c2 - r2)) > FILL_TOL) break;
      r0 = 0.8 * r0 + 0.2 * c0;
      r1 = 0.8 * r1 + 0.2 * c1;
      r2 = 0.8 * r2 + 0.2 * c2;
      cx = nx;
      cy2 = ny;
    }
    const ref = [r0, r1, r2];
    let edge = false;
    for (let k = 1; k <= d && !edge; k++) edge = distance(px(cx + dx * k, cy2 + dy * k), ref) >= EDGE;
    return { at: dx ? cx : cy2, edge, page: px(cx + dx * d, cy2 + dy * d) };
  };
  const pad = Math.max(MIN_PAD_PX, PAD * W);
  /** Along the row's line in direction `dx`, past the other rows on it (the next emoji, a contact's initials). */
  const across = (x: number, dx: -1 | 1): ReturnType<typeof walk> | undefined => {
    if (x <= 0 || x >= W - 1 || distance(px(x, cy), fill) > FILL_TOL) return undefined;
    let w = walk(x, cy, dx, 0);
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      const near = (o: Candidate): boolean =>
        [1, d / 2, d, d + pad].some((k) => contains(o.box, (w.at + dx * k) / W, cy / H));
      const next = rows.find(near);
      if (!next) break;
      const nx = dx > 0 ? Math.ceil(next.box[2] * W + pad) : Math.floor(next.box[0] * W - pad);
      if (nx <= 0 || nx >= W - 1 || distance(px(nx, cy), fill) > FILL_TOL) break;
      w = walk(nx, cy, dx, 0);
    }
    return w;
  };
  const l = across(sx, -1);
  const t = walk(sx, cy, 0, -1);
  const b = walk(sx, cy, 0, 1);
  // From the row's end along its middle to the trailing edge (no ink there: the row has ended).
  const r = across(Math.ceil(box[2] * W + pad), 1);
  if (!l || !r) return undefined;
  if (!l.edge || !t.edge || !b.edge || !r.edge) return undefined; // not closed: a bar or the page
  // The page on both sides: a bubble, not a stretch of fill cut by ink (a scrubber's track, a glyph).
  if (distance(l.page, r.page) > SAME_PAGE) return undefined;
  const bubble: FracBox = [l.at / W, t.at / H, (r.at + 1) / W, (b.at + 1) / H];
  if (boxWidth(bubble) > MAX_WIDTH || boxHeight(bubble) < PADDED * boxHeight(box)) return undefined;
  if (bubble[2] < box[2]) return undefined; // the row runs out of it: not its bubble
  return { box: bubble, fill };
}

/** Whether two boxes share most of a line (half the lower one's height) without meeting across. */
function sideBySide(a: FracBox, b: FracBox): boolean {
  const overlapY = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  const apart = a[2] <= b[0] || b[2] <= a[0];
  return apart && overlapY > 0.5 * Math.min(boxHeight(a), boxHeight(b));
}

/** RGB of the pixel at (x, y), clamped to the image. */
export function pixel(screen: RgbImage, x: number, y: number): number[] {
  const cx = Math.min(screen.width - 1, Math.max(0, Math.round(x)));
  const cy = Math.min(screen.height - 1, Math.max(0, Math.round(y)));
  const i = (cy * screen.width + cx) * 3;
  return [screen.data[i] ?? 0, screen.data[i + 1] ?? 0, screen.data[i + 2] ?? 0];
}

const mean = (cs: readonly number[][]): number[] =>
  [0, 1, 2].map((c) => cs.reduce((s, v) => s + (v[c] ?? 0), 0) / Math.max(1, cs.length));

/** Largest channel difference. */
export const distance = (a: readonly number[], b: readonly number[]): number => {
  // As `Math.max(...a.map(…))`, without an array and a spread per call (a walk calls it per pixel).
  let m = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs((a[i] as number) - (b[i] ?? 0)));
  return m;
};
