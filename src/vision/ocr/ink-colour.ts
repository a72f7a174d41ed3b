import { luma, type RgbImage } from "../../shared/image.js";
import type { PixelBox } from "./detect.js";

/**
 * Whether the words on the two sides of a gap are printed in different colours. A UILabel draws its
 * text in one `textColor`, so two words of one label share their ink's colour; labels set side by side
 * often do not: a navigation bar's back button is tinted (the app's tint, `systemBlue` by default) and
 * its title is `label` (black or white) — Apple, UIKit `UINavigationBar` / HIG "Color". On a camera
 * frame blur narrows the gap between such labels below `split.ts`'s gap for two labels (`Settings
 * NoUpdateCircles`: 0.47 em filmed, against 0.6 em less 2 px of blur), and the colour still tells them
 * apart. Blur mixes each glyph's edge with the background, so only each side's most contrasting ink is
 * compared (the strokes' cores keep their colour).
 */

/** Share of each side's ink pixels, the most contrasting, whose colour is averaged. */
const CORE_SHARE = 0.3;
/** Chroma (max − min channel, 0–255) from which ink is tinted, and below which it is neutral. */
const TINTED = 70;
const NEUTRAL = 30;
/** Hue difference (degrees) from which two tinted inks are different colours. */
const HUE_APART = 60;
/**
 * Two neutral inks are two colours when the fainter one's contrast with the background is at most this
 * share of the stronger one's: UIKit's text greys are `label` and `secondaryLabel` / `tertiaryLabel`
 * (#3C3C43 at 60% / 30% over white, #EBEBF5 at 60% / 30% over black), contrast ratios 0.46 / 0.23 on
 * white and 0.55 / 0.27 on black — a field's grey title beside its black value, a caption beside its
 * title. One label's words share one colour, so their cores match well above this.
 */
const FAINTER_SHARE = 0.6;

/** The mean colour of the most contrasting ink in `x0`–`x1` of `line`, or null without clear ink. */
function coreColour(image: RgbImage, line: PixelBox, x0: number, x1: number, bg: number): number[] | null {
  const px: { d: number; o: number }[] = [];
  const ya = Math.max(0, Math.floor(line.y0));
  const yb = Math.min(image.height, Math.ceil(line.y1));
  const xa = Math.max(0, Math.floor(x0));
  const xb = Math.min(image.width, Math.ceil(x1));
  for (let y = ya; y < yb; y++)
    for (let x = xa; x < xb; x++) {
      const o = (y * image.width + x) * 3;
      const d = Math.abs(luma(image.data, o) - bg);
      if (d > 24) px.push({ d, o });
    }
  if (px.length < 6) return null;
  px.sort((a, b) => b.d - a.d);
  const core = px.slice(0, Math.max(3, Math.round(CORE_SHARE * px.length)));
  const sum = [0, 0, 0];
  for (const { o } of core) for (let c = 0; c < 3; c++) sum[c] = (sum[c] ?? 0) + (image.data[o + c] ?? 0);
  return sum.map((s) => s / core.length);
}

function meanGrey(rgb: readonly number[]): number {
  const [r = 0, g = 0, b = 0] = rgb;
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

function chroma(rgb: readonly number[]): number {
  return Math.max(...rgb) - Math.min(...rgb);
}

function hue(rgb: readonly number[]): number {
  const [r = 0, g = 0, b = 0] = rgb;
  return (Math.atan2(Math.sqrt(3) * (g - b), 2 * r - g - b) * 180) / Math.PI;
}

/** The median grey of the rows just above and below `line` (its own edges graze letters). */
function background(image: RgbImage, line: PixelBox): number {
  const m = Math.max(1, Math.round(0.1 * (line.y1 - line.y0)));
  const above = Math.max(0, Math.floor(line.y0) - m);
  const below = Math.min(image.height - 1, Math.ceil(line.y1) - 1 + m);
  return middle(
    edgeLumas(
      image,
      Math.max(0, Math.floor(line.x0)),
      Math.min(image.width, Math.ceil(line.x1)),
      above,
      below,
    ),
  );
}

/**
 * The lumas of rows `above` and `below` (image rows, in range) over columns `x0`–`x1` (exclusive),
 * sorted: a text line's background, from rows clear of it (its ink box's own edges graze letters).
 * The median is the line's background grey.
 */
export function edgeLumas(image: RgbImage, x0: number, x1: number, above: number, below: number): number[] {
  const edge: number[] = [];
  for (let x = x0; x < x1; x++)
    edge.push(
      luma(image.data, (above * image.width + x) * 3),
      luma(image.data, (below * image.width + x) * 3),
    );
  return edge.sort((a, b) => a - b);
}

/** The middle value of sorted `xs` (0 for none). */
export const middle = (xs: readonly number[]): number => xs[xs.length >> 1] ?? 0;

/**
 * Whether the ink within `reach` px left of the gap `x0`–`x1` and within `reach` right of it are two
 * colours: one tinted and one neutral, or two tints `HUE_APART` apart.
 */
export function inkColoursDiffer(
  image: RgbImage,
  line: PixelBox,
  gap: { x0: number; x1: number },
  reach: number,
): boolean {
  const bg = background(image, line);
  const left = coreColour(image, line, Math.max(line.x0, gap.x0 - reach), gap.x0, bg);
  const right = coreColour(image, line, gap.x1, Math.min(line.x1, gap.x1 + reach), bg);
  if (!left || !right) return false;
  const [a, b] = [chroma(left), chroma(right)];
  if ((a >= TINTED && b <= NEUTRAL) || (b >= TINTED && a <= NEUTRAL)) return true;
  if (a <= NEUTRAL && b <= NEUTRAL) {
    const [l, r] = [Math.abs(meanGrey(left) - bg), Math.abs(meanGrey(right) - bg)];
    return Math.min(l, r) <= FAINTER_SHARE * Math.max(l, r);
  }
  if (a < TINTED || b < TINTED) return false;
  const d = Math.abs(hue(left) - hue(right)) % 360;
  return Math.min(d, 360 - d) >= HUE_APART;
}

/** Whether the most contrasting ink in `x0`–`x1` of `line` is tinted (not a grey). */
export function isTinted(image: RgbImage, line: PixelBox, x0: number, x1: number): boolean {
  const core = coreColour(image, line, x0, x1, background(image, line));
  return core !== null && chroma(core) >= TINTED;
}
