import type { RgbImage } from "../shared/image.js";
import type { Candidate } from "./row.js";

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

/**
 * The text rows of `rows` read through a bar's material (see the module comment): rows in the bars'
 * bands whose edge sharpness is under `BLURRED`, or whose contrast is under `FADED`, of the median of
 * the screen's text rows. Empty when the screen has too few text rows to say what its text looks like.
 */
export function textBehindMaterial(screen: RgbImage, rows: readonly Candidate[]): Set<Candidate> {
  const text = rows.filter((r) => r.kind === "text");
  const out = new Set<Candidate>();
  if (text.length < MIN_REFERENCE) return out;
  const ink = new Map(text.map((r) => [r, measureInk(screen, r.box)]));
  const median = (v: number[]): number => v.sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? 0;
  const sharp = median([...ink.values()].map((i) => i.sharpness));
  const spread = median([...ink.values()].map((i) => i.spread));
  for (const [r, i] of ink) {
    const cy = (r.box[1] + r.box[3]) / 2;
    if (cy >= TOP_BAR && cy <= BOTTOM_BAR) continue;
    if ((i.sharpness > 0 && i.sharpness < BLURRED * sharp) || i.spread < FADED * spread) out.add(r);
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
