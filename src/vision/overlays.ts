import type { RgbImage } from "../shared/image.js";
import type { Candidate } from "./row.js";
import { centreX, centreY } from "./row.js";

/**
 * A side drawer (a "slide-over" or hamburger menu) open over the screen's main view.
 *
 * A drawer covers the screen from its leading edge, top to bottom, and leaves a strip of the main view
 * showing beside it, dimmed: tapping the strip closes the drawer (the pattern of UIKit's
 * `UIPresentationController` with a dimming view, as in Apple's "Custom View Controller Presentations"
 * sample; HIG "Modality": the content behind a modal view is not interactive). The strip's text is the
 * main view cut by the screen's edge — fragments (`512`, `Runr`), not targets.
 *
 * Found as one straight vertical edge over the whole height of the screen below the status bar, in the
 * trailing part of the screen, with the strip darker than the drawer (dimmed). Nothing else in an iPhone
 * app draws one: lists, cards and grouped tables break their edges at section gaps and rows.
 */

/** The drawer's edge lies between these fractions of the width (drawers cover 60–92% of it). */
const EDGE_MIN = 0.6;
const EDGE_MAX = 0.92;
/** The edge runs over the screen from under the status bar to above the home indicator … */
const TOP = 0.08;
const BOTTOM = 0.97;
/** … stepping darker towards the strip, by at least this many levels, in this fraction of its rows. */
const STEP = 6;
const COVER = 0.98;
/** Rows sampled down the edge: about one every two points of a 3× screen. */
const ROWS = 600;

/**
 * The x (screen fraction) of an open drawer's edge, or undefined when none is open (see the module
 * comment).
 */
export function drawerEdge(screen: RgbImage): number | undefined {
  const { width: W, height: H, data } = screen;
  const luma = (x: number, y: number): number => {
    const i = (y * W + x) * 3;
    return 0.299 * (data[i] ?? 0) + 0.587 * (data[i + 1] ?? 0) + 0.114 * (data[i + 2] ?? 0);
  };
  // Compared across about a point either side: the edge is one pixel in a screenshot, a few after a camera.
  const d = Math.max(2, Math.round(W / 200));
  const y0 = Math.round(TOP * H);
  const y1 = Math.round(BOTTOM * H);
  const dy = Math.max(1, Math.floor((y1 - y0) / ROWS));
  const n = Math.floor((y1 - y0 + dy - 1) / dy);
  for (let x = Math.round(EDGE_MIN * W); x <= Math.round(EDGE_MAX * W) && x + d < W; x++) {
    let darker = 0;
    let missed = 0;
    for (let y = y0; y < y1; y += dy) {
      if (luma(x + d, y) - luma(x - d, y) <= -STEP) darker++;
      else if (++missed > (1 - COVER) * n) break;
    }
    if (darker >= COVER * n) return (x + 0.5) / W;
  }
  return undefined;
}

/** The text rows of `rows` in the dimmed strip beside an open drawer whose edge is at `edge`. */
export function textBesideDrawer(rows: readonly Candidate[], edge: number | undefined): Set<Candidate> {
  if (edge === undefined) return new Set();
  return new Set(rows.filter((r) => r.kind === "text" && centreX(r.box) > edge));
}

/**
 * A centred menu card: a popup panel of stacked choices (a sleep timer's 15 min … 2 hours) over a
 * dimmed screen, presented modally (HIG "Modality"; UIKit `.overFullScreen` / `.popover` presentations):
 * only the panel takes touches. Found as three or more centred text rows, evenly spaced (one choice per
 * row of the menu, 44 pt or more apart, HIG "Buttons"), between two straight vertical edges symmetric
 * about the screen's middle that run unbroken beside all of them — the panel's sides. Returns the
 * panel's box, from its sides and the first and last choices (screen fractions), or undefined.
 */
export function findMenuCard(screen: RgbImage, rows: readonly Candidate[]): Candidate["box"] | undefined {
  const items = rows
    .filter((r) => r.kind === "text" && Math.abs(centreX(r.box) - 0.5) < CENTRED)
    .sort((a, b) => a.box[1] - b.box[1]);
  const stack = evenStack(items, screen.height / Math.max(1, screen.width));
  if (!stack) return undefined;
  const top = stack[0]?.box[1] ?? 0;
  const bottom = stack[stack.length - 1]?.box[3] ?? 0;
  const left = Math.min(...stack.map((r) => r.box[0]));
  const side = panelSide(screen, top, bottom, left);
  if (side === undefined) return undefined;
  return [side, top, 1 - side, bottom];
}

/** A menu item's title is centred: its centre within this fraction of the width of the middle. */
const CENTRED = 0.015;
/** Evenly spaced: each gap between item centres within this fraction of the median gap. */
const EVEN = 0.15;
/** Items are at least 44 pt apart (HIG "Buttons": 44 pt targets), as a fraction of the width: 44/440. */
const ITEM_MIN = 0.1;
/**
 * A panel's left side lies within these fractions of the width: menus and alerts are 250 pt wide or
 * more (UIKit's alert 270 pt, its context menu 250 pt) of a 320–440 pt screen, and keep a margin.
 */
const SIDE_MIN = 0.03;
const SIDE_MAX = 0.25;
/** A panel's side steps by this many levels against its surroundings in this fraction of its rows. */
const SIDE_STEP = 4;
const SIDE_COVER = 0.95;

/** The longest run (≥ 3) of `items` (sorted by top) whose centres are evenly spaced, ≥ 44 pt apart. */
function evenStack(items: readonly Candidate[], aspect: number): Candidate[] | undefined {
  let best: Candidate[] | undefined;
  for (let i = 0; i + 2 < items.length; i++) {
    const first = items[i] as Candidate;
    const second = items[i + 1] as Candidate;
    const gap = centreY(second.box) - centreY(first.box);
    if (gap * aspect < ITEM_MIN) continue;
    const run = [first, second];
    for (let j = i + 2; j < items.length; j++) {
      const next = items[j] as Candidate;
      const prev = run[run.length - 1] as Candidate;
      if (Math.abs(centreY(next.box) - centreY(prev.box) - gap) > EVEN * gap) break;
      run.push(next);
    }
    if (run.length >= 3 && (!best || run.length > best.length)) best = run;
  }
  return best;
}

/**
 * The x (screen fraction) of a panel's left side: the column left of `left` (the items' left edge),
 * within `SIDE_MIN`–`SIDE_MAX` of the width, that steps against its neighbours in `SIDE_COVER` of the rows from
 * `top` to `bottom`, with its mirror about the middle doing the same.
 */
function panelSide(screen: RgbImage, top: number, bottom: number, left: number): number | undefined {
  const { width: W, height: H, data } = screen;
  const luma = (x: number, y: number): number => {
    const i = (y * W + x) * 3;
    return 0.299 * (data[i] ?? 0) + 0.587 * (data[i + 1] ?? 0) + 0.114 * (data[i + 2] ?? 0);
  };
  const d = Math.max(2, Math.round(W / 200));
  const y0 = Math.round(top * H);
  const y1 = Math.round(bottom * H);
  const dy = Math.max(1, Math.floor((y1 - y0) / 200));
  // A side is a line (lighter or darker than both neighbours) or a step (one side to the other) of the
  // same sign all the way down, unlike the edges of a picture or of the rows inside the panel.
  const edge = (x: number): boolean => {
    const counts = [0, 0, 0, 0];
    let n = 0;
    for (let y = y0; y < y1; y += dy) {
      const c = luma(x, y);
      const a = c - luma(x - d, y);
      const b = c - luma(x + d, y);
      const step = luma(x + d, y) - luma(x - d, y);
      if (a >= SIDE_STEP && b >= SIDE_STEP) counts[0] = (counts[0] ?? 0) + 1;
      if (a <= -SIDE_STEP && b <= -SIDE_STEP) counts[1] = (counts[1] ?? 0) + 1;
      if (step >= SIDE_STEP) counts[2] = (counts[2] ?? 0) + 1;
      if (step <= -SIDE_STEP) counts[3] = (counts[3] ?? 0) + 1;
      n++;
    }
    return n > 0 && Math.max(...counts) >= SIDE_COVER * n;
  };
  for (
    let x = Math.min(Math.round(left * W) - d, Math.round(SIDE_MAX * W));
    x >= Math.round(SIDE_MIN * W);
    x--
  )
    if (edge(x) && edge(W - 1 - x)) return x / W;
  return undefined;
}
