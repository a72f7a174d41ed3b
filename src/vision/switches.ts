import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import { findCutSwitches } from "./switches-cut.js";
import { findShapeCutSwitches } from "./switches-cut-shape.js";
import { dimmedKnob, pastelOnTrack, undimmedGrids } from "./switches-disabled.js";
import {
  brightness,
  cell,
  cellDiff,
  diff,
  FLAT_OUT,
  flatAround,
  flatOffset,
  type Grid,
  isKnob,
  isPaleKnob,
  meanGrid,
  type Run,
  runs,
  SAME,
  sampleGrid,
  verticalExtent,
} from "./switches-grid.js";
import { findOutlineSwitches } from "./switches-outline.js";
import { blurredRim, KNOB_RIM, textured } from "./switches-rim.js";
import { washedOffSwitch } from "./switches-washed.js";

/**
 * iOS switches (UISwitch) found in the pixels, in either state, whatever the detector saw. The shape
 * model is Apple's, measured in track heights `h` so that one model covers every scale (320–430 pt
 * screens, Display Zoom, apps that shrink the control):
 *
 * - iOS 7–18: a 51×31 pt capsule with a 27 pt round knob inset 2 pt (UIKit `UISwitch` intrinsic size,
 *   HIG "Toggles"): width 1.65 h, knob 0.87 h.
 * - iOS 26 ("Liquid Glass"): a 64×28 pt capsule with a 38×24 pt pill-shaped knob: width 2.3 h, knob
 *   0.86 h tall and 1.36 h wide (measured on iOS 26 screenshots).
 * - On: the track filled with the tint (system green #34C759, dark #30D158, or an app's `onTintColor`),
 *   knob at the right. Off: a grey track (#E9E9EA light, #39393D dark; iOS 7–12: white with a thin grey
 *   border, found by `switches-outline.ts`), knob at the left. With "On/Off Labels" (Accessibility) a
 *   thin `I` or `O` is drawn on the track.
 *
 * So the state is where the knob sits, whatever the colours. How: along each row of a grid of about one
 * cell per point (`switches-grid.ts`), runs of one colour are collected; a switch's centre row reads
 * [background][track][white knob][thin track][background] (on) or mirrored (off). A candidate is kept
 * when the track is a capsule (rounded outer end) of height `h`, the knob is bounded above and below
 * within the track (a white background beside a coloured disc is not a knob), and the widths fit the
 * model. About 8 ms of CPU for a 1242×2688 screen (2.5 ms of it the outline pass, `switches-outline.ts`).
 */

export interface FoundSwitch {
  box: FracBox;
  on: boolean;
  /** Drawn dimmed: `isEnabled = false`, a tap does nothing (`switches-disabled.ts`). */
  disabled?: boolean;
}

/**
 * Track height in grid cells (≈ points): 31 pt, from a shrunk 18 pt control to Display Zoom's 38. The
 * height is read as the run of the track's colour, and through a camera the blur eats about a cell of a
 * light track's colour at each edge on a dark cell: a 20 pt control (a scaled-down `UISwitch`) reads 16.
 */
const TRACK_HEIGHT = { min: 15, max: 42 };
/** The smallest track height read on any cell (a shrunk 18 pt control); below it only on a dark cell. */
const SHRUNK_MIN = 17;
/** A dark cell (dark mode's #1C1C1E / black, filmed): brightness at most this. */
const DARK_CELL = 100;
/**
 * Knob height / track height: 27/31 (iOS 7–18), 24/28 (iOS 26); down to 2/3 for cross-platform
 * toolkits' iOS-style switches (a Flutter/Compose knob inset 5 pt); up to 1 when the track's rim is
 * drawn in a darker shade than its fill (iOS 7), which then measures no taller than the knob — and a
 * little over 1 through a camera, whose blur eats a cell of the track's colour at each edge while the
 * white knob keeps its height.
 */
const KNOB_TALL = { min: 0.6, max: 1.12 };
/** Knob width / track height: round 0.87 (0.67 inset), pill 1.36. */
const KNOB_WIDE = { min: 0.6, max: 1.5 };
/** Switch width / track height: 51/31 = 1.65, 64/28 = 2.3. */
const SWITCH_WIDE = { min: 1.4, max: 2.45 };
/**
 * Runs of the track's colour separated by at most this many cells are one track (an `I`/`O` label of
 * about 1 pt). Not more: a digit's stroke on a coloured disc (a map's cluster marker "3") is 4–6 cells,
 * and so is a camera-blurred `I`, which is then lost (`rb-bkpasscode-touchid-switch.png` filmed).
 */
const LABEL_GAP = 3;
/**
 * Up and down the track, a gap of at most this many cells is a label's stroke (the `O`'s top and bottom):
 * more would bridge the 4 pt between switches stacked in rows as short as 35 pt.
 */
const LABEL_GAP_Y = 3;

/**
 * How much further (in track heights) the flat surroundings may be read below the switch than above:
 * 2 of the 3 pt the knob's shadow is offset down. Not more: a 44 pt row's separator is 6.5 pt below.
 */
const SHADOW_BELOW = 0.07;

interface Candidate {
  box: [number, number, number, number];
  on: boolean;
  /** The knob was cut out of a white run that merged with the background (a weaker reading). */
  merged: boolean;
  /** The track's colour (none for an outline switch). */
  colour?: readonly number[];
  /** Found dimmed (`switches-disabled.ts`). */
  disabled?: boolean;
}

/**
 * The track beside the knob run `rs[k]` on `side`: that run joined with the following runs of the same
 * colour across gaps of at most `LABEL_GAP` cells; null when that run is not a track's colour.
 */
function trackRun(rs: readonly Run[], k: number, side: -1 | 1): { run: Run; next: number } | null {
  const first = rs[k + side];
  if (!first) return null;
  let { x0, x1 } = first;
  let i = k + side;
  for (;;) {
    const n = rs[i + side];
    if (!n || diff(n.colour, first.colour) > SAME) break;
    const gap = side === 1 ? n.x0 - x1 : x0 - n.x1;
    if (gap > LABEL_GAP) break;
    if (side === 1) x1 = n.x1;
    else x0 = n.x0;
    i += side;
  }
  return { run: { x0, x1, colour: first.colour }, next: i + side };
}

/**
 * How far the track's colour runs up and down from (x, y), stepping over a label glyph's stroke of at
 * most `LABEL_GAP_Y` cells (an `O` drawn on the track); returns [top, bottom) rows.
 */
function bridgedExtent(
  g: Grid,
  x: number,
  y: number,
  colour: readonly number[],
  limit: number,
): [number, number] {
  const reach = (dir: -1 | 1): number => {
    let last = y;
    for (let d = 1, miss = 0; d <= limit && miss <= LABEL_GAP_Y; d++) {
      const yy = y + dir * d;
      if (yy < 0 || yy >= g.h) break;
      if (cellDiff(g, x, yy, colour) <= SAME) {
        last = yy;
        miss = 0;
      } else miss++;
    }
    return last;
  };
  return [reach(-1), reach(1) + 1];
}

/**
 * The track's height at its straight part: the second-tallest extent over five columns across it. One
 * column may run on into something of the track's colour; the others can each be cut short — by the
 * capsule's round end (a short on-track is hardly longer than its end's radius), the `I`/`O` label, or
 * the knob's shadow beside the knob (iOS 7–12).
 */
function trackExtent(g: Grid, y: number, track: Run, h0: number): [number, number] {
  const exts = [0.3, 0.45, 0.6, 0.75, 0.9].map((f) => {
    const x = Math.round(track.x0 + f * (track.x1 - track.x0 - 1));
    return bridgedExtent(g, x, y, track.colour, h0);
  });
  exts.sort((a, b) => b[1] - b[0] - (a[1] - a[0]));
  return exts[1] ?? [y, y + 1];
}

/** A run; a knob's run may hold a centred mark (see `joinKnobMarks`), as [x0, x1) cells. */
type MarkedRun = Run & { mark?: [number, number] };

/**
 * Some apps' switches (pre-iOS 13 tweaks and toolkits) draw a grey dot or ring in the middle of the
 * white knob, which cuts the knob's run in three along its centre rows: white, mark, white of one
 * colour (an anti-aliased cell or two apart), the mark centred between them and lighter than the track. Those three become one knob run.
 */
function joinKnobMarks(rs: readonly Run[]): MarkedRun[] {
  const out: MarkedRun[] = [];
  for (let i = 0; i < rs.length; i++) {
    const a = rs[i];
    const m = rs[i + 1];
    const b = rs[i + 2];
    if (a && m && b && isKnob(a.colour) && diff(a.colour, b.colour) <= SAME && m.x0 - a.x1 <= 2) {
      const w = b.x1 - a.x0;
      const centred = Math.abs((m.x0 + m.x1) / 2 - (a.x0 + b.x1) / 2) <= 0.1 * w;
      if (b.x0 - m.x1 <= 2 && centred && m.x1 - m.x0 <= 0.5 * w && brightness(m.colour) >= 150) {
        out.push({ x0: a.x0, x1: b.x1, colour: a.colour, mark: [m.x0, m.x1] });
        i += 2;
        continue;
      }
    }
    if (a) out.push(a);
  }
  return out;
}

function candidateAt(g: Grid, y: number, rs: readonly MarkedRun[], k: number): Candidate | null {
  const run = rs[k];
  if (!run || !(isKnob(run.colour) || isPaleKnob(run.colour))) return null;
  const rw = run.x1 - run.x0;
  if (rw < KNOB_WIDE.min * TRACK_HEIGHT.min) return null;
  for (const side of [-1, 1] as const) {
    // The long stretch of track is on the side away from the knob's end of the capsule.
    const found = trackRun(rs, k, side);
    if (!found) continue;
    const track = found.run;
    // The knob is the brighter: the off track (#E9E9EA) is pale too, but darker than the white knob.
    if (brightness(track.colour) > brightness(run.colour) - 12 || diff(track.colour, run.colour) < 20)
      continue;
    // The track is a capsule h tall, centred on this row …
    const [t0, t1] = trackExtent(g, y, track, TRACK_HEIGHT.max + 1);
    const h = t1 - t0;
    if (h < TRACK_HEIGHT.min || h > TRACK_HEIGHT.max) continue;
    // Under the shrunk control's floor, or with a pale knob, only on a dark cell (blur cut the height).
    const beside = cell(g, side === 1 ? Math.min(g.w - 1, track.x1 + 3) : Math.max(0, track.x0 - 4), y);
    if ((h < SHRUNK_MIN || !isKnob(run.colour)) && brightness(beside) > DARK_CELL) continue;
    if (Math.abs((t0 + t1) / 2 - y) > 0.12 * h + 1) continue;
    const tw = track.x1 - track.x0;
    if (tw < 0.35 * h || tw > 1.25 * h) continue;
    // Beyond the long track: background, not more of the track colour.
    const beyond = rs[found.next];
    if (
      beyond &&
      diff(beyond.colour, track.colour) <= SAME &&
      Math.abs(side === 1 ? beyond.x0 - track.x1 : track.x0 - beyond.x1) <= 3
    )
      continue;
    // A white knob with no visible rim on a white cell runs on into the background: its own part is a
    // round knob's width next to the track.
    const merged = rw > KNOB_WIDE.max * h;
    const kw = Math.round(0.87 * h);
    const knob = !merged ? run : side === 1 ? { ...run, x0: run.x1 - kw } : { ...run, x1: run.x0 + kw };
    const knobW = knob.x1 - knob.x0;
    if (knobW < KNOB_WIDE.min * h) continue;
    // On the knob's other side a sliver of track (the 2 pt inset, often dropped as an edge), then background.
    const near = rs[k - side];
    let nearEdge = side === 1 ? knob.x0 - Math.round(0.07 * h) : knob.x1 + Math.round(0.07 * h);
    const sliver = !merged && near !== undefined && diff(near.colour, track.colour) <= SAME;
    if (sliver) {
      // More than a sliver of track colour past the knob: the "knob" is a white glyph on a coloured
      // tile (the Messages icon's bubble), not a switch's knob.
      if (near.x1 - near.x0 > 0.22 * h) continue;
      nearEdge = side === 1 ? near.x0 : near.x1;
    }
    const x0 = side === 1 ? nearEdge : track.x0;
    const x1 = side === 1 ? track.x1 : nearEdge;
    if (x1 - x0 < SWITCH_WIDE.min * h || x1 - x0 > SWITCH_WIDE.max * h) continue;
    // … with a rounded end: near its outer end the track is much lower than in its middle (a grey
    // rectangle beside a white one is not a switch).
    const endX = side === 1 ? track.x1 - 3 : track.x0 + 2;
    const [e0, e1] = verticalExtent(g, endX, y, track.colour, TRACK_HEIGHT.max);
    if (e1 - e0 > 0.8 * h) continue;
    // The knob sits inside the track: bounded above and below, a little lower than the track (a white
    // background beside a coloured disc runs on far above and below).
    // Measured at the knob's centre, or just beside a centred mark, which would cut the column short.
    const kxs = run.mark ? [run.mark[0] - 2, run.mark[1] + 1] : [Math.floor((knob.x0 + knob.x1) / 2)];
    const [k0, k1] = kxs
      .map((kx) => verticalExtent(g, kx, y, knob.colour, TRACK_HEIGHT.max + 2))
      .reduce((a, b) => (b[1] - b[0] > a[1] - a[0] ? b : a));
    const kh = k1 - k0;
    if (kh < KNOB_TALL.min * h || kh > KNOB_TALL.max * h + 1) continue;
    if (Math.abs((k0 + k1) / 2 - (t0 + t1) / 2) > 0.1 * h + 1) continue;
    if (!merged && knobW > KNOB_WIDE.max * h) continue;
    // The knob is round (or a pill with round ends): near its edge facing the track it is much lower
    // than at its centre (a light block of a map beside a darker one is square).
    const inset = Math.max(1, Math.round(0.1 * knobW));
    const xe = side === 1 ? knob.x1 - 1 - inset : knob.x0 + inset;
    const [r0, r1] = verticalExtent(g, xe, y, knob.colour, TRACK_HEIGHT.max + 2);
    if (r1 - r0 > 0.88 * kh) continue;
    // Below a switch the knob's drop shadow (UISwitch: offset 3 pt down, a few points' blur) and, through
    // a camera, the blurred edge of a dark tinted track run a little further than above: the cells below
    // may be read `SHADOW_BELOW` of h further out. A filmed knob's blurred rim may widen the box
    // (`switches-rim.ts`).
    let box: [number, number, number, number] = [x0, t0, x1, t1];
    const flat = (b: [number, number, number, number]) =>
      flatAround(g, b) || shadowedBelow(g, b, track.colour);
    if (!flat(box)) {
      if (merged || sliver || !blurredRim(g, y, knob, track.colour, side)) continue;
      box = side === 1 ? [x0 - KNOB_RIM, t0, x1, t1] : [x0, t0, x1 + KNOB_RIM, t1];
      if (box[2] - box[0] > SWITCH_WIDE.max * h || !flat(box)) continue;
    }
    return { box, on: side === -1, merged, colour: track.colour };
  }
  return null;
}

/** A shadow only darkens: each channel at most this much over the cell further down (noise). */
const SHADOW_NOISE = 6;
/**
 * …and only under a track much darker than its cell (a tint or a dark-mode track on a light sheet):
 * only so strong an edge, blurred, still shows `FLAT_OUT` of h below it.
 */
const SHADOW_EDGE = 60;

/**
 * Whether the box's surroundings are flat once the cells just below it are read `SHADOW_BELOW` of h
 * further down, and the cells skipped there are a shadow or a blurred dark edge: no channel lighter
 * than the cell further down, under a track much darker than that cell.
 */
function shadowedBelow(
  g: Grid,
  box: readonly [number, number, number, number],
  track: readonly number[],
): boolean {
  const [x0, y0, x1, y1] = box;
  const h = y1 - y0;
  const below = Math.max(1, Math.round(SHADOW_BELOW * h));
  if (!flatAround(g, box, FLAT_OUT, below)) return false;
  const o = flatOffset(h);
  for (const f of [0.25, 0.5, 0.75]) {
    const x = Math.floor(x0 + f * (x1 - x0));
    const yFar = y1 - 1 + o + below;
    if (yFar >= g.h) return false;
    const near = cell(g, x, y1 - 1 + o);
    const far = cell(g, x, yFar);
    if (near.some((v, c) => v > (far[c] ?? 0) + SHADOW_NOISE)) return false;
    if (brightness(track) > brightness(far) - SHADOW_EDGE) return false;
  }
  return true;
}

const overlaps = (a: Candidate, b: Candidate): boolean =>
  a.box[0] < b.box[2] && b.box[0] < a.box[2] && a.box[1] < b.box[3] && b.box[1] < a.box[3];

/** The capsule-and-knob candidates of grid `g`, one per switch, in scan order. */
function scanRows(g: Grid): Candidate[] {
  const found: Candidate[] = [];
  for (let y = 10; y < g.h - 10; y++) {
    const plain = runs(g, y);
    const joined = joinKnobMarks(plain);
    // Each run as it is, and a knob's run joined across a centred mark (a knob's shadow on a pale track
    // can look like one between a white knob and a white track, so the plain reading is tried too).
    const readings = joined.length < plain.length ? [plain, joined] : [plain];
    for (const [rs, k] of readings.flatMap((rs) => rs.map((_, k) => [rs, k] as const))) {
      if (rs === joined && !joined[k]?.mark) continue;
      const c = candidateAt(g, y, rs, k);
      if (!c) continue;
      // Several rows through one switch match: keep the first, unless a reading with a knob of its own
      // comes after one cut out of a merged run.
      const twin = found.findIndex((f) => overlaps(f, c));
      if (twin < 0) found.push(c);
      else if (found[twin]?.merged && !c.merged) found[twin] = c;
    }
  }
  return found;
}

/** Every switch on the screen, top to bottom. */
export function findSwitches(image: RgbImage): FoundSwitch[] {
  if (image.width < 100 || image.height < 100) return [];
  const g = sampleGrid(image);
  const found = scanRows(g).map((c) =>
    c.on && c.colour && pastelOnTrack(g, c.box, c.colour) ? { ...c, disabled: true } : c,
  );
  // Through a camera, sensor noise cuts a white knob's run into pieces and the blur's spread of the
  // knob's shadow over a pale track grades it past `SAME`: the same scan on the 3×3 mean grid.
  const smooth = meanGrid(g);
  for (const c of scanRows(smooth))
    if (!found.some((f) => overlaps(f, c)) && !textured(g, smooth, c.box)) found.push(c);
  // Disabled switches (`isEnabled = false`), drawn dimmed over their cell: the same scan on the grid
  // with that dimming undone (`switches-disabled.ts`).
  // An enabled light off switch whose contrast a camera squeezed shows there too (`switches-washed.ts`).
  for (const u of undimmedGrids(g, smooth))
    for (const c of scanRows(u.grid)) {
      if (found.some((f) => overlaps(f, c))) continue;
      if (dimmedKnob(g, c.box, c.on, u.bg, c.colour)) found.push({ ...c, disabled: true });
      else if (washedOffSwitch(g, c.box, c.on, u.bg, c.colour)) found.push(c);
    }
  for (const o of findOutlineSwitches(g))
    if (!found.some((f) => overlaps(f, { ...o, merged: false }))) found.push({ ...o, merged: false });
  for (const c of findCutSwitches(g, found))
    if (!found.some((f) => overlaps(f, { ...c, merged: false }))) found.push({ ...c, merged: false });
  // Cut by the bottom edge with no whole one of its colour above: from UISwitch's shape (on the mean
  // grid too, for a camera's or JPEG's noise on the knob).
  for (const grid of [g, smooth])
    for (const c of findShapeCutSwitches(
      grid,
      found.map((f) => f.box),
    ))
      found.push({ ...c, merged: false });
  found.sort((a, b) => a.box[1] - b.box[1]);
  return found.map((f) => ({
    on: f.on,
    ...(f.disabled ? { disabled: true } : {}),
    box: [f.box[0] / g.w, f.box[1] / g.h, f.box[2] / g.w, f.box[3] / g.h],
  }));
}
