import type { RgbImage } from "../shared/image.js";
import type { Candidate } from "./row.js";
import { tabTitles } from "./tab-bar-content.js";

/**
 * Text seen through an iOS material, not text on it.
 *
 * UIKit's bars (`UINavigationBar`, `UIToolbar`, `UITabBar` with their default appearance) are drawn in a
 * translucent "material": a `UIVisualEffectView` with a `UIBlurEffect` that blurs whatever scrolls under
 * the bar (HIG "Materials": "materials … blur the content behind them"; UIKit `UIBarAppearance.
 * configureWithDefaultBackground()`: "a translucent background … with a blur effect"). The same blur sits
 * behind menus, sheets and popovers. Text behind the material is smeared over many pixels and faded; the
 * bar's own title and buttons, and all the screen's other text, are drawn sharp on top of it. A text
 * row whose strokes rise over many more pixels than the screen's other text of its size is what the
 * OCR read through the blur: a fragment of a line that scrolled under the bar, not a target.
 *
 * Sharpness is measured relative to the same screen's text, so the rule holds on camera frames too,
 * where the optics blur everything (`--camera`): the material's blur comes on top of the camera's.
 */

/** At least this many text rows on the screen give a reference; with fewer, no rows are dropped. */
const MIN_REFERENCE = 4;
/**
 * Where iOS draws its bars, as fractions of the screen's height: the status bar (≤ 59 pt) and a
 * navigation bar (44 pt, HIG "Navigation bars") with a search field or large title under it reach
 * ~150 pt of an 844–932 pt tall screen; a tab bar or toolbar (49 pt, HIG "Tab bars", "Toolbars") over the
 * home indicator (34 pt), or iOS 26's floating tab bar, fills the bottom ~100 pt.
 */
const TOP_BAR = 0.17;
const BOTTOM_BAR = 0.88;
/**
 * A row in a bar's band is seen through the material when its edge sharpness is under this fraction of
 * the screen's median text sharpness: a material's blur (a Gaussian tens of points wide, HIG
 * "Materials") spreads an edge that text antialiasing keeps within a pixel or two over ten or more.
 */
const BLURRED = 0.3;
/**
 * … or when its ink contrast is under this fraction of the screen's median text contrast: iOS 26's
 * scroll edge effect (UIKit `UIScrollEdgeEffect`) fades content under the bars into the background
 * instead. The faintest text iOS draws on purpose, `tertiaryLabel`/`placeholderText` (30% opacity,
 * UIKit `UIColor`), keeps 30% of `label`'s contrast, and a screen's median text is at most as
 * contrasted as `label`: text under 28% of the median is fainter than anything iOS draws on purpose.
 */
const FADED = 0.28;
/**
 * … or when it is at once softer than `SOFT` and fainter than `FAINT` of the screen's median text: what
 * iOS 26 does to content under its floating Liquid Glass bars. The glass refracts and blurs what passes
 * under a bar's controls, and the scroll edge effect (`UIScrollEdgeEffect`, its default soft style) blurs
 * *and* fades the content at the bar's edge at once, by less than a classic bar's material on either
 * count alone. Text iOS draws in a bar on purpose is sharp at any contrast (a placeholder is faint but
 * crisp), and faint-looking bar text a camera softens keeps more of its contrast; a row both soft and
 * faint is content behind the glass. `SOFT`: its edges spread over ≥ 1.5× the pixels of the screen's
 * text. On the labelled dev screens NetNewsWire 7's fragments under its glass bars measure 0.49–0.60
 * sharpness and 0.36–0.49 contrast; the softest faint bar text iOS draws there, the App Library's
 * placeholder in its translucent search field, 0.72 (screenshot) – 0.77 (camera) sharpness, and a
 * faded but labelled headline under the bar, 0.57 contrast.
 */
const SOFT = 0.67;
const FAINT = 0.5;
/** Samples at most this many pixels along a box's longer side (larger boxes are strided). */
const MAX_SAMPLES = 160;

/** A text row's ink: edge sharpness (0–1, `edgeSharpness`) and luma spread (levels). */
interface Ink {
  sharpness: number;
  spread: number;
}

/**
 * Edge sharpness of the ink inside `box` (screen fractions): the 97th percentile of the luma step
 * between neighbouring pixels (horizontal and vertical), over the box's luma spread (97th minus 3rd
 * percentile). Scale-free: a sharp edge of any contrast steps most of its spread within a pixel or two
 * (near 0.5–1), a blurred one a small part of it per pixel. 0 for a flat or empty box.
 */
export function edgeSharpness(screen: RgbImage, box: Candidate["box"]): number {
  return measureInk(screen, box).sharpness;
}

function measureInk(screen: RgbImage, box: Candidate["box"]): Ink {
  const { width: W, height: H, data } = screen;
  const l = Math.max(0, Math.floor(box[0] * W));
  const r = Math.min(W - 1, Math.ceil(box[2] * W));
  const t = Math.max(0, Math.floor(box[1] * H));
  const b = Math.min(H - 1, Math.ceil(box[3] * H));
  if (r - l < 3 || b - t < 3) return { sharpness: 0, spread: 0 };
  // Steps are measured between adjacent pixels, so rows are strided, never pixels within one.
  const stride = Math.max(1, Math.floor(Math.max(r - l, b - t) / MAX_SAMPLES));
  const luma = (x: number, y: number): number => {
    const i = (y * W + x) * 3;
    return 0.299 * (data[i] ?? 0) + 0.587 * (data[i + 1] ?? 0) + 0.114 * (data[i + 2] ?? 0);
  };
  const levels = new Uint32Array(256);
  const steps = new Uint32Array(256);
  let n = 0;
  for (let y = t; y < b; y += stride)
    for (let x = l; x < r; x++) {
      const c = luma(x, y);
      const step = Math.max(Math.abs(luma(x + 1, y) - c), Math.abs(luma(x, y + 1) - c));
      levels[Math.round(c)] = (levels[Math.round(c)] ?? 0) + 1;
      steps[Math.round(step)] = (steps[Math.round(step)] ?? 0) + 1;
      n++;
    }
  const spread = percentile(levels, n, 0.97) - percentile(levels, n, 0.03);
  if (spread < 8) return { sharpness: 0, spread };
  return { sharpness: Math.min(1, percentile(steps, n, 0.97) / spread), spread };
}

/** The screen's text: its median edge sharpness and luma spread, or undefined with too few text rows. */
interface Reference {
  sharp: number;
  spread: number;
}

function reference(screen: RgbImage, text: readonly Candidate[]): Reference | undefined {
  if (text.length < MIN_REFERENCE) return undefined;
  const ink = text.map((r) => measureInk(screen, r.box));
  const median = (v: number[]): number => v.sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? 0;
  return { sharp: median(ink.map((i) => i.sharpness)), spread: median(ink.map((i) => i.spread)) };
}

/** Whether a row's centre lies in a bar's band (`TOP_BAR`, `BOTTOM_BAR`). */
const inBarBand = (box: Candidate["box"]): boolean => {
  const cy = (box[1] + box[3]) / 2;
  return cy < TOP_BAR || cy > BOTTOM_BAR;
};

/** Whether `ink` is blurred (`BLURRED`) or faded (`FADED`) against the screen's text `ref`. */
const seenThrough = (ink: Ink, ref: Reference): boolean =>
  (ink.sharpness > 0 && ink.sharpness < BLURRED * ref.sharp) || ink.spread < FADED * ref.spread;

/** Whether `ink` is both soft and faint (`SOFT`, `FAINT`) against the screen's text `ref`. */
const underGlass = (ink: Ink, ref: Reference): boolean =>
  ink.sharpness > 0 && ink.sharpness < SOFT * ref.sharp && ink.spread < FAINT * ref.spread;

/**
 * The text rows of `rows` read through a bar's material (see the module comment): rows in the bars'
 * bands whose edge sharpness is under `BLURRED`, or whose contrast is under `FADED`, or both under
 * `SOFT` and `FAINT` (iOS 26's glass and scroll edge effect), of the median of the screen's text rows.
 * Empty when the screen has too few text rows to say what its text looks like.
 */
export function textBehindMaterial(screen: RgbImage, rows: readonly Candidate[]): Set<Candidate> {
  const text = rows.filter((r) => r.kind === "text");
  const ref = reference(screen, text);
  const out = new Set<Candidate>();
  if (!ref) return out;
  // A tab item's title is the bar's own text: iOS 26 draws unselected titles grey on the glass and the
  // selected one tinted on a lighter pill, both faint in luma against the page's text, and a camera
  // softens their 10 pt strokes (HIG "Tab bars"), so the ink tests below would take them for content.
  const titles = tabTitles(rows);
  for (const r of text) {
    if (!inBarBand(r.box) || titles.has(r)) continue;
    const ink = measureInk(screen, r.box);
    if (seenThrough(ink, ref) || underGlass(ink, ref)) out.add(r);
  }
  return out;
}

/**
 * `rows` with each text row that joins a bar's sharp text to content seen through the bar cut down to
 * the sharp part. A navigation bar's title sits on the same line as the content scrolled under the
 * material beside it (`Prada 2 . T Today`: a blurred headline, then the bar's title `Today`), and the
 * OCR reads the two as one line. The row's words are placed along its box in proportion to their
 * characters, and each word's ink is measured against the screen's text like a whole row
 * (`textBehindMaterial`): when some words are seen through the material and others are not, the row
 * keeps the longest run of words that are not — its label and its box shrink to them. Rows outside the
 * bars' bands, of one word, or a tab item's title (`tabTitles`) are kept as they are.
 */
export function trimSeenThrough(screen: RgbImage, rows: readonly Candidate[]): Candidate[] {
  const ref = reference(
    screen,
    rows.filter((r) => r.kind === "text"),
  );
  if (!ref) return [...rows];
  const titles = tabTitles(rows); // a tab item's title is the bar's text, all of it (`textBehindMaterial`)
  return rows.map((r) => {
    if (r.kind !== "text" || !inBarBand(r.box) || titles.has(r)) return r;
    const words = placeWords(r.label, r.box);
    if (words.length < 2) return r;
    const through = words.map((w) => seenThrough(measureInk(screen, w.box), ref));
    if (!through.includes(true) || !through.includes(false)) return r;
    let best: [number, number] = [0, -1];
    for (let i = 0; i < words.length; i++) {
      if (through[i]) continue;
      let j = i;
      while (j + 1 < words.length && !through[j + 1]) j++;
      if (j - i > best[1] - best[0]) best = [i, j];
      i = j;
    }
    const kept = words.slice(best[0], best[1] + 1);
    const first = kept[0];
    const last = kept[kept.length - 1];
    if (!first || !last) return r;
    return {
      ...r,
      label: kept.map((w) => w.text).join(" "),
      box: [first.box[0], r.box[1], last.box[2], r.box[3]],
    };
  });
}

/** The words of `label` (split at spaces), each placed along `box` in proportion to its characters. */
function placeWords(label: string, box: Candidate["box"]): { text: string; box: Candidate["box"] }[] {
  const chars = [...label];
  const width = (box[2] - box[0]) / Math.max(1, chars.length);
  const out: { text: string; box: Candidate["box"] }[] = [];
  let start = -1;
  for (let i = 0; i <= chars.length; i++) {
    const space = i === chars.length || /\s/.test(chars[i] ?? " ");
    if (!space && start < 0) start = i;
    if (space && start >= 0) {
      out.push({
        text: chars.slice(start, i).join(""),
        box: [box[0] + start * width, box[1], box[0] + i * width, box[3]],
      });
      start = -1;
    }
  }
  return out;
}

/** The smallest level at or below which a fraction `q` of the `n` counted samples lie. */
function percentile(histogram: Uint32Array, n: number, q: number): number {
  let seen = 0;
  for (let v = 0; v < histogram.length; v++) {
    seen += histogram[v] ?? 0;
    if (seen >= q * n) return v;
  }
  return histogram.length - 1;
}
