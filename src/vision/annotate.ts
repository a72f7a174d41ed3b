import sharp from "sharp";
import type { FontBook } from "../shared/fonts.js";
import type { RgbImage } from "../shared/image.js";
import type { ListingEntry, ListingKind } from "./listing.js";

/**
 * The image half of a view: the rectified screen as JPEG with each listing entry's box and number drawn
 * on it, so the model can tie a row of the listing to what it sees. Digits are drawn from the shipped
 * fonts (no dependency on the fonts a Pi happens to have).
 *
 * Boxes and tags are drawn straight into the RGB pixels and the digits blitted from glyph masks
 * rendered once per size: rasterising an SVG overlay of the whole screen cost ~25 ms per peek, this
 * ~2 ms.
 */
export interface AnnotateOptions {
  /** Longest edge of the JPEG in pixels (the screen is scaled down, never up, to fit). */
  maxLongEdge: number;
  quality: number;
}

export const DEFAULT_ANNOTATE_OPTIONS: AnnotateOptions = { maxLongEdge: 1600, quality: 80 };

/** Box colour per row kind: text blue, unnamed icons orange, named targets (apps, widgets, buttons) purple, keys teal, switches, checkboxes and sliders green, the status bar grey. */
const COLORS: Record<ListingKind, readonly [number, number, number]> = {
  text: [0x0a, 0x84, 0xff],
  icon: [0xff, 0x7a, 0x00],
  app: [0xaf, 0x52, 0xde],
  widget: [0xaf, 0x52, 0xde],
  button: [0xaf, 0x52, 0xde],
  key: [0x30, 0xb0, 0xc7],
  switch: [0x34, 0xc7, 0x59],
  checkbox: [0x34, 0xc7, 0x59],
  slider: [0x34, 0xc7, 0x59],
  status: [0x8e, 0x8e, 0x93],
  link: [0x0a, 0x84, 0xff],
};
/** Opacity of a number tag's background (the screen shows through a little). */
const TAG_OPACITY = 0.85;

/** One digit's coverage mask (0–255) and how far the pen moves after it. */
interface DigitMask {
  width: number;
  height: number;
  alpha: Uint8Array;
  advance: number;
}

/**
 * Draws listing entries onto screens. Holds the digit masks it has rendered (a few kB per font size),
 * so keep one per pipeline rather than one per call.
 */
export class ScreenAnnotator {
  private readonly digits = new Map<number, Promise<DigitMask[]>>();

  constructor(
    private readonly fonts: FontBook,
    private readonly options: AnnotateOptions = DEFAULT_ANNOTATE_OPTIONS,
  ) {}

  /**
   * The annotated JPEG of `screen` (which is not modified). `pending`: `this.canvas(screen)` started
   * earlier, so its resize (in libuv's pool) overlaps the caller's work; started here otherwise.
   */
  async annotate(
    screen: RgbImage,
    entries: readonly ListingEntry[],
    pending: Promise<Buffer> = this.canvas(screen),
  ): Promise<Buffer> {
    const { quality } = this.options;
    const { width: w, height: h } = this.canvasSize(screen);
    const data = await pending;
    const canvas: RgbImage = { width: w, height: h, channels: 3, data };
    const stroke = Math.max(1, Math.round(w / 400));
    const size = Math.max(9, Math.round(w / 36));
    const masks = await this.digitMasks(size);
    const tagH = size * 1.05;
    for (const e of entries) {
      const [l, t, r, b] = [e.box[0] * w, e.box[1] * h, e.box[2] * w, e.box[3] * h];
      const color = COLORS[e.kind];
      strokeRect(canvas, l, t, r, b, stroke, color);
      const label = String(e.id);
      const tagW = this.fonts.measure(label, size, "semibold") + size * 0.4;
      // The tag sits above the box when there is room, else inside its top-left corner.
      const tx = Math.min(Math.max(l, 0), w - tagW);
      const ty = t - tagH >= 0 ? t - tagH : t;
      fillRect(canvas, tx, ty, tx + tagW, ty + tagH, color, TAG_OPACITY);
      let pen = tx + size * 0.2;
      for (const ch of label) {
        const mask = masks[ch.charCodeAt(0) - 48];
        if (!mask) continue;
        blitWhite(canvas, mask, Math.round(pen), Math.round(ty));
        pen += mask.advance;
      }
    }
    // Huffman optimisation (sharp's default) costs ~6 ms here but saves 8–26% of the bytes, which
    // the upload to the model pays for on a slow link.
    return sharp(data, { raw: { width: w, height: h, channels: 3 } })
      .jpeg({ quality })
      .toBuffer();
  }

  /**
   * A fresh copy of `screen` at the JPEG's size (`maxLongEdge`), to draw on. The pipeline starts it
   * before the listing's semantics run: the shrink of a full-size screenshot then runs on the other
   * core meanwhile, and the pixels are the same.
   */
  async canvas(screen: RgbImage): Promise<Buffer> {
    const { width: w, height: h } = this.canvasSize(screen);
    const raw = { width: screen.width, height: screen.height, channels: 3 } as const;
    return w === screen.width && h === screen.height
      ? Buffer.from(screen.data.subarray(0, w * h * 3))
      : sharp(screen.data, { raw }).resize(w, h, { fit: "fill" }).raw().toBuffer();
  }

  private canvasSize(screen: RgbImage): { width: number; height: number } {
    const scale = Math.min(1, this.options.maxLongEdge / Math.max(screen.width, screen.height));
    return {
      width: Math.max(1, Math.round(screen.width * scale)),
      height: Math.max(1, Math.round(screen.height * scale)),
    };
  }

  /** Masks of 0–9 at `size`, each as tall as a tag with the baseline where the SVG overlay put it. */
  private digitMasks(size: number): Promise<DigitMask[]> {
    let masks = this.digits.get(size);
    if (!masks) {
      masks = Promise.all(Array.from({ length: 10 }, (_, d) => renderDigit(this.fonts, String(d), size)));
      this.digits.set(size, masks);
      // A failed render is not remembered: the next image tries again.
      masks.catch(() => this.digits.delete(size));
    }
    return masks;
  }
}

/** Draw `entries` on `screen` with a one-off annotator (prefer a kept `ScreenAnnotator`). */
export function annotateScreen(
  screen: RgbImage,
  entries: readonly ListingEntry[],
  fonts: FontBook,
  options: AnnotateOptions = DEFAULT_ANNOTATE_OPTIONS,
): Promise<Buffer> {
  return new ScreenAnnotator(fonts, options).annotate(screen, entries);
}

async function renderDigit(fonts: FontBook, digit: string, size: number): Promise<DigitMask> {
  const advance = fonts.measure(digit, size, "semibold");
  const width = Math.max(1, Math.ceil(advance) + 1);
  const height = Math.max(1, Math.ceil(size * 1.05));
  const shaped = fonts.shape(digit, 0, size * 0.88, { size, weight: "semibold", fill: "#fff" });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${shaped.svg}</svg>`;
  const rgba = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer();
  const alpha = new Uint8Array(width * height);
  for (let i = 0; i < alpha.length; i++) alpha[i] = rgba[i * 4 + 3] ?? 0;
  return { width, height, alpha, advance };
}

type Rgb = readonly [number, number, number];

/** Blend `color` at `opacity` over the pixels of [x0, x1) × [y0, y1) (rounded, clipped). */
function fillRect(
  img: RgbImage,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  color: Rgb,
  opacity = 1,
): void {
  const ax = Math.max(0, Math.round(x0));
  const bx = Math.min(img.width, Math.round(x1));
  const ay = Math.max(0, Math.round(y0));
  const by = Math.min(img.height, Math.round(y1));
  const keep = 1 - opacity;
  const [r, g, b] = [color[0] * opacity, color[1] * opacity, color[2] * opacity];
  const d = img.data;
  for (let y = ay; y < by; y++) {
    for (let x = ax, o = (y * img.width + ax) * 3; x < bx; x++, o += 3) {
      d[o] = (d[o] ?? 0) * keep + r + 0.5;
      d[o + 1] = (d[o + 1] ?? 0) * keep + g + 0.5;
      d[o + 2] = (d[o + 2] ?? 0) * keep + b + 0.5;
    }
  }
}

/** A rectangle outline `stroke` px wide, centred on the box edges (as an SVG stroke is). */
function strokeRect(
  img: RgbImage,
  l: number,
  t: number,
  r: number,
  b: number,
  stroke: number,
  color: Rgb,
): void {
  const s = stroke / 2;
  fillRect(img, l - s, t - s, r + s, t + s, color);
  fillRect(img, l - s, b - s, r + s, b + s, color);
  fillRect(img, l - s, t + s, l + s, b - s, color);
  fillRect(img, r - s, t + s, r + s, b - s, color);
}

/** Blend white through `mask` with its top-left at (x, y), clipped to the image. */
function blitWhite(img: RgbImage, mask: DigitMask, x: number, y: number): void {
  const d = img.data;
  for (let my = 0; my < mask.height; my++) {
    const iy = y + my;
    if (iy < 0 || iy >= img.height) continue;
    for (let mx = 0; mx < mask.width; mx++) {
      const ix = x + mx;
      const a = mask.alpha[my * mask.width + mx] ?? 0;
      if (a === 0 || ix < 0 || ix >= img.width) continue;
      const o = (iy * img.width + ix) * 3;
      const k = a / 255;
      for (let c = 0; c < 3; c++) d[o + c] = (d[o + c] ?? 0) * (1 - k) + 255 * k + 0.5;
    }
  }
}
