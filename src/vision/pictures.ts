import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import { edgeAngles, SLANT_STRIDE, slantedCells, toPoints } from "./edge-angles.js";
import { components, contentMask, pageColours } from "./photo-grid.js";
import { pictureCaptions } from "./picture-captions.js";
import { transportControls } from "./picture-controls.js";
import { onDisc, onPlate } from "./picture-plates.js";
import { onCircles } from "./rings.js";
import type { Candidate } from "./row.js";
import { centreX, centreY, contains } from "./row.js";

/**
 * Pictures set into a screen — a photo, video or map snapshot in a message bubble, album art on a
 * player, an app's header artwork — found so that what OCR and the detector see *in* them (a map's
 * place names, a photo's shapes, lettering in artwork) is not listed as something to tap.
 *
 * How iOS lays them out: UIKit and SwiftUI draw controls and text on flat fills — the page colour, a
 * grouped cell, a bubble, a glass plate (HIG "Materials", "Color") — while a picture is an image view
 * of continuous tone: many colours, none covering most of it. An embedded picture is a rectangle (its
 * corners at most rounded) of non-page pixels at least ~100 × 50 pt, set inside the page's margins
 * (a full-width or full-screen picture — a map app, a camera, a wallpaper — carries the app's real
 * controls over it and is left alone; so is one that runs from one side of the screen across most of
 * it, the same content view whose far side matches the page colour in places: a map's pale land or
 * white roads beside a white page). So: the components of non-page blocks (the page colour is the
 * screen's commonest, as `photo-grid.ts` finds it) that are that large, nearly fill their box, stop
 * short of one side of the screen, and whose commonest colour covers less than half of them with many
 * colours in the rest, are pictures.
 */

/** Points across the commonest iPhones; blocks are about 2 pt. */
const SCREEN_PT = 390;
const BLOCK_PT = 2;
/** A picture is at least this big, in points (smaller images are app icons, avatars, thumbnails). */
const MIN_W_PT = 100;
const MIN_H_PT = 50;
/** Share of its box a picture covers (rounded corners leave ~5%). */
const MIN_FILL = 0.9;
/**
 * A picture whose edges are slanted may fill less of its box: a pale map's land and white roads or a
 * photo's white sky match a white page in places, so its blocks leave bays along its outline.
 */
const MIN_RAGGED_FILL = 0.75;
/** Ragged pieces whose boxes overlap by this share of the smaller are one picture's (`interleaved`). */
const PIECES_OVERLAP = 0.25;
/** A picture stops this far (fraction of the width) short of at least one side. */
const INSET = 0.02;
/**
 * A picture reaching one side and covering this share of the width is a content view (a map, a web
 * view), not media set into the page: UIKit insets embedded media by the layout margins (16–20 pt of
 * 320–430 pt, HIG "Layout") on both sides, and a carousel's item cut by the screen's side leaves the
 * next item peeking (under ~80%).
 */
const CONTENT_VIEW = 0.85;
/** The picture's commonest colour (4 bits a channel) covers less than this share of it … */
const MAX_TOP = 0.5;
/** … and at least this many colours cover 1% of it or more: a flat fill with text has two or three. */
const MIN_COLOURS = 6;
/**
 * A block row is flat when one colour runs across half the picture's width in it; UI plates (cards,
 * alerts, widgets) have flat bands between their lines and around their buttons, so a picture has flat
 * rows in at most this share of its height.
 */
const MAX_FLAT_ROWS = 0.1;
/** Rows leave at least this share of a picture bare (a box the rows fill is an interface's). */
const MIN_BARE = 0.25;
/** Edge pixels (at ~1 pt) cover at least this share of a picture's area outside its rows … */
const MIN_EDGE_SHARE = 0.08;
/** … and at least this share of them are slanted (a uniform spread of angles gives ~0.57). */
const MIN_SLANT = 0.5;
/**
 * … and in at least this many of its 3 × 3 cells: a picture's contours run all over it, while a chart's
 * line or a card's one slanted glyph crosses a few cells.
 */
const MIN_SLANTED_CELLS = 6;
/** A control's value: a time, a count, a percentage (digits with `:`, `.`, `,`, `%`, a sign). */
const VALUE = /^[+\-−]?\d[\d:.,\s]*%?$/;
/**
 * … whose box is at least this tall (pt): Body text is 17 pt (HIG "Typography", default sizes), its
 * digits' box ~13 pt or more; a map's Caption labels (11–12 pt) stay under it.
 */
const MIN_VALUE_PT = 13;
/** … and whose centre is within this share of the picture's width and height of the picture's centre. */
const VALUE_CENTRED = 0.15;
/** Pixels of one fill differ by at most this per channel (a camera frame's noise and shading). */
const FILL_TOL = 12;

/**
 * `rows` with each picture listed once: text and icon rows centred on it are its content and go, except
 * text on a plate over it, a round button over it (`picture-plates.ts`) and a caption the app set over
 * it (`picture-captions.ts`); when the detector saw something on it (an icon row), the picture
 * itself may be a target (tapping a photo or a map snapshot opens it) and is one `icon` row over its
 * box. Lettering alone (album art, an illustration) lists nothing: such art is rarely a target.
 */
export function listPictures(screen: RgbImage, rows: readonly Candidate[]): Candidate[] {
  const screenPt = screen.height / (screen.width / SCREEN_PT);
  const pictures = findPictures(
    screen,
    rows.map((r) => r.box),
  ).filter((p) => !rows.some((r) => showsValue(r, p, screenPt)));
  if (pictures.length === 0) return [...rows];
  const out: Candidate[] = [];
  const seen = new Map<FracBox, Candidate[]>(pictures.map((p) => [p, []]));
  const on = (r: Candidate): FracBox | undefined =>
    r.kind === "text" || r.kind === "icon"
      ? pictures.find((b) => contains(b, centreX(r.box), centreY(r.box)))
      : undefined;
  const aspect = screen.height / Math.max(1, screen.width);
  const captions = new Set(
    pictures.flatMap((p) => [
      ...pictureCaptions(
        rows.filter((r) => on(r) === p),
        p,
        aspect,
      ),
    ]),
  );
  // Media controls set straight over the picture (⏮ ⏯ ⏭ over album art): `picture-controls.ts`.
  const controls = new Set(
    pictures.flatMap((p) => [
      ...transportControls(
        rows.filter((r) => on(r) === p),
        p,
        aspect,
      ),
    ]),
  );
  for (const r of rows) {
    const p = on(r);
    const over =
      p &&
      (captions.has(r) ||
        controls.has(r) ||
        (r.kind === "text" && onPlate(screen, r.box, p)) ||
        (r.kind === "icon" && onDisc(screen, r.box, p)));
    if (p && !over) seen.get(p)?.push(r);
    else out.push(r);
  }
  for (const [box, on] of seen) {
    const icons = on.filter((r) => r.kind === "icon");
    if (icons.length > 0)
      out.push({ kind: "icon", label: "", box, conf: Math.max(...icons.map((r) => r.conf)) });
  }
  return out;
}

/**
 * Whether text row `r` is the value a control shows in the middle of `pic` — a timer's countdown in its
 * progress ring, a gauge's reading, a percentage in a ring (HIG "Gauges", "Progress indicators"): digits,
 * at least body size, centred. Then `pic` is that control, not a picture, and its text is what an agent
 * reads; a map's labels are names in caption sizes, a photo's lettering seldom a number at its centre.
 * `screenPt` is the screen's height in points.
 */
function showsValue(r: Candidate, pic: FracBox, screenPt: number): boolean {
  if (r.kind !== "text" || !VALUE.test(r.label) || (r.box[3] - r.box[1]) * screenPt < MIN_VALUE_PT)
    return false;
  const w = pic[2] - pic[0];
  const h = pic[3] - pic[1];
  return (
    Math.abs(centreX(r.box) - (pic[0] + pic[2]) / 2) <= VALUE_CENTRED * w &&
    Math.abs(centreY(r.box) - (pic[1] + pic[3]) / 2) <= VALUE_CENTRED * h
  );
}

/**
 * The pictures on `screen` (see the module comment), as screen fractions; `rows` are the boxes of the
 * rows found on it (their strokes are text and glyphs, not the picture's contours).
 */
export function findPictures(screen: RgbImage, rows: readonly FracBox[] = []): FracBox[] {
  const page = pageColours(screen)[0];
  if (!page) return [];
  const pt = screen.width / SCREEN_PT;
  const f = Math.max(1, Math.round(BLOCK_PT * pt));
  const mask = contentMask(screen, page, f);
  const w = Math.floor(screen.width / f);
  const h = Math.floor(screen.height / f);
  const out: FracBox[] = [];
  const pieces: FracBox[] = [];
  for (const c of components(mask, w, h)) {
    const cw = c.x1 - c.x0;
    const ch = c.y1 - c.y0;
    if (cw * f < MIN_W_PT * pt || ch * f < MIN_H_PT * pt) continue;
    if (contentView(c.x0 / w, c.x1 / w)) continue;
    const fill = (c.n + enclosed(mask, w, c)) / (cw * ch);
    const box: FracBox = [c.x0 / w, c.y0 / h, c.x1 / w, c.y1 / h];
    if (fill < MIN_RAGGED_FILL) {
      pieces.push(box);
      continue;
    }
    // The colour test first: it is the cheaper one.
    if ((fill >= MIN_FILL && manyColours(screen, mask, w, f, c)) || slanted(screen, box, rows)) out.push(box);
  }
  for (const box of interleaved(pieces))
    if (!out.some((o) => overlap(o, box) > 0) && slanted(screen, box, rows)) out.push(box);
  return out;
}

/**
 * The boxes around groups of `pieces` (ragged components too sparse to be a picture each) whose boxes
 * overlap by at least `PIECES_OVERLAP` of the smaller: a map whose pale land matches the page within a
 * camera frame's noise falls apart into its roads and water, pieces that interleave, while an
 * interface's plates lie side by side or nested (HIG "Layout"). The union must still stop short of a side.
 */
function interleaved(pieces: readonly FracBox[]): FracBox[] {
  const group = pieces.map((_, i) => i);
  const root = (i: number): number => (group[i] === i ? i : root(group[i] as number));
  for (let i = 0; i < pieces.length; i++)
    for (let j = i + 1; j < pieces.length; j++) {
      const a = pieces[i] as FracBox;
      const b = pieces[j] as FracBox;
      if (overlap(a, b) >= PIECES_OVERLAP * Math.min(area(a), area(b))) group[root(j)] = root(i);
    }
  const out = new Map<number, { box: FracBox; n: number }>();
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i] as FracBox;
    const g = out.get(root(i));
    if (!g) out.set(root(i), { box: [...p], n: 1 });
    else {
      g.box = [
        Math.min(g.box[0], p[0]),
        Math.min(g.box[1], p[1]),
        Math.max(g.box[2], p[2]),
        Math.max(g.box[3], p[3]),
      ];
      g.n++;
    }
  }
  return [...out.values()].filter((g) => g.n > 1 && !contentView(g.box[0], g.box[2])).map((g) => g.box);
}

/**
 * Whether a picture spanning `x0`–`x1` (fractions of the width) is the screen's content view: it
 * reaches both sides, or one side and most of the width (`CONTENT_VIEW`).
 */
function contentView(x0: number, x1: number): boolean {
  const left = x0 < INSET;
  const right = x1 > 1 - INSET;
  return (left && right) || ((left || right) && x1 - x0 >= CONTENT_VIEW);
}

const area = (b: FracBox): number => (b[2] - b[0]) * (b[3] - b[1]);
const overlap = (a: FracBox, b: FracBox): number =>
  Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0])) *
  Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));

/**
 * Whether the edges in `box`, outside `rows`, are a picture's: dense, mostly slanted, all over it. An interface's
 * edges run across and down (`edge-angles.ts`), a map's roads and coasts and a photo's contours at every
 * angle — where one fill covers most of the picture (a map's land, a painting's paper) this is what
 * tells it from a card. Slanted edges on circles (a progress ring, Activity rings, a round button or
 * avatar: `rings.ts`) are an interface's too, and do not count.
 */
function slanted(screen: RgbImage, box: FracBox, rows: readonly FracBox[]): boolean {
  const points = toPoints(screen, box);
  const e = edgeAngles(points, box, rows);
  const whole = (box[2] - box[0]) * points.w * (box[3] - box[1]) * points.h;
  const pictureLike = (slant: number, cells: number): boolean => {
    const edges = e.axis + slant;
    return (
      e.area >= MIN_BARE * whole &&
      edges >= MIN_EDGE_SHARE * e.area &&
      slant >= MIN_SLANT * edges &&
      cells >= MIN_SLANTED_CELLS
    );
  };
  if (!pictureLike(e.slant, e.slantedCells)) return false;
  // Only now, as it costs more: the same test without the slanted edges that lie on circles.
  const px: [number, number, number, number] = [
    Math.floor(box[0] * points.w),
    Math.floor(box[1] * points.h),
    Math.ceil(box[2] * points.w),
    Math.ceil(box[3] * points.h),
  ];
  const circles = onCircles(e.slanted, px);
  const cellSlant = new Uint32Array(9);
  let slant = 0;
  for (let i = 0; i < circles.length; i++) {
    if (circles[i]) continue;
    slant++;
    const cell = e.slanted[i * SLANT_STRIDE + 4] as number;
    cellSlant[cell] = (cellSlant[cell] as number) + 1;
  }
  return pictureLike(slant, slantedCells(e.cellArea, cellSlant));
}

/**
 * Blocks inside `c`'s box that are not `c`'s but that `c` walls in (not reachable from the box's border
 * through other blocks): the page-coloured pixels of the picture itself — a map's white roads on a white
 * page — which are holes in its mask, not gaps around it.
 */
function enclosed(
  mask: Uint8Array,
  w: number,
  c: { x0: number; y0: number; x1: number; y1: number },
): number {
  const cw = c.x1 - c.x0;
  const ch = c.y1 - c.y0;
  const outside = new Uint8Array(cw * ch);
  const stack: number[] = [];
  const push = (x: number, y: number): void => {
    const i = y * cw + x;
    if (outside[i] || mask[(c.y0 + y) * w + c.x0 + x]) return;
    outside[i] = 1;
    stack.push(i);
  };
  for (let x = 0; x < cw; x++) {
    push(x, 0);
    push(x, ch - 1);
  }
  for (let y = 0; y < ch; y++) {
    push(0, y);
    push(cw - 1, y);
  }
  while (stack.length > 0) {
    const i = stack.pop() as number;
    const x = i % cw;
    const y = (i - x) / cw;
    if (x > 0) push(x - 1, y);
    if (x + 1 < cw) push(x + 1, y);
    if (y > 0) push(x, y - 1);
    if (y + 1 < ch) push(x, y + 1);
  }
  let n = 0;
  for (let i = 0; i < cw * ch; i++)
    if (!outside[i] && !mask[(c.y0 + Math.floor(i / cw)) * w + c.x0 + (i % cw)]) n++;
  return n;
}

/** Whether the content blocks in `c`'s box are of continuous tone: no colour dominant, many present. */
function manyColours(
  screen: RgbImage,
  mask: Uint8Array,
  w: number,
  f: number,
  c: { x0: number; y0: number; x1: number; y1: number },
): boolean {
  const { width: W, data } = screen;
  const n = new Map<number, number>();
  let total = 0;
  let flatRows = 0;
  for (let y = c.y0; y < c.y1; y++) {
    let run = 0;
    let longest = 0;
    let start = -1;
    for (let x = c.x0; x < c.x1; x++) {
      const o = (y * f * W + x * f) * 3;
      // A run is one fill within camera noise of where it started.
      const same =
        start >= 0 &&
        Math.abs((data[o] as number) - (data[start] as number)) <= FILL_TOL &&
        Math.abs((data[o + 1] as number) - (data[start + 1] as number)) <= FILL_TOL &&
        Math.abs((data[o + 2] as number) - (data[start + 2] as number)) <= FILL_TOL;
      if (same) run++;
      else {
        run = 1;
        start = o;
      }
      longest = Math.max(longest, run);
      if (!mask[y * w + x]) continue;
      const key =
        (((data[o] as number) >> 4) << 8) |
        (((data[o + 1] as number) >> 4) << 4) |
        ((data[o + 2] as number) >> 4);
      n.set(key, (n.get(key) ?? 0) + 1);
      total++;
    }
    if (longest >= 0.5 * (c.x1 - c.x0)) flatRows++;
  }
  if (total === 0 || flatRows > MAX_FLAT_ROWS * (c.y1 - c.y0)) return false;
  const shares = [...n.values()].map((v) => v / total);
  return Math.max(...shares) < MAX_TOP && shares.filter((s) => s >= 0.01).length >= MIN_COLOURS;
}
