import sharp from "sharp";
import type { FontBook } from "../sim/render/text.js";
import type { ListingEntry } from "./listing.js";
import type { RgbImage } from "./types.js";

/**
 * The image half of a view: the rectified screen as JPEG with each listing entry's box and number drawn
 * on it, so the model can tie a row of the listing to what it sees. Digits are drawn as outlines from the
 * shipped fonts (no dependency on the fonts a Pi happens to have).
 */
export interface AnnotateOptions {
  /** Longest edge of the JPEG in pixels (the screen is scaled down, never up, to fit). */
  maxLongEdge: number;
  quality: number;
}

export const DEFAULT_ANNOTATE_OPTIONS: AnnotateOptions = { maxLongEdge: 1600, quality: 80 };

const COLORS = { icon: "#ff7a00", text: "#0a84ff" } as const;

export async function annotateScreen(
  screen: RgbImage,
  entries: readonly ListingEntry[],
  fonts: FontBook,
  options: AnnotateOptions = DEFAULT_ANNOTATE_OPTIONS,
): Promise<Buffer> {
  const scale = Math.min(1, options.maxLongEdge / Math.max(screen.width, screen.height));
  const w = Math.max(1, Math.round(screen.width * scale));
  const h = Math.max(1, Math.round(screen.height * scale));
  const stroke = Math.max(1, Math.round(w / 400));
  const size = Math.max(9, Math.round(w / 36));
  const parts: string[] = [];
  for (const e of entries) {
    const [l, t, r, b] = [e.box[0] * w, e.box[1] * h, e.box[2] * w, e.box[3] * h];
    const color = COLORS[e.kind];
    parts.push(
      `<rect x="${l.toFixed(1)}" y="${t.toFixed(1)}" width="${(r - l).toFixed(1)}" height="${(b - t).toFixed(1)}" fill="none" stroke="${color}" stroke-width="${stroke}"/>`,
    );
    const tagW = fonts.measure(String(e.id), size, "semibold") + size * 0.4;
    const tagH = size * 1.05;
    // The tag sits above the box when there is room, else inside its top-left corner.
    const tx = Math.min(Math.max(l, 0), w - tagW);
    const ty = t - tagH >= 0 ? t - tagH : t;
    const text = fonts.shape(String(e.id), tx + size * 0.2, ty + size * 0.88, {
      size,
      weight: "semibold",
      fill: "#fff",
    });
    parts.push(
      `<rect x="${tx.toFixed(1)}" y="${ty.toFixed(1)}" width="${tagW.toFixed(1)}" height="${tagH.toFixed(1)}" fill="${color}" fill-opacity="0.85"/>`,
    );
    parts.push(text.svg);
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${parts.join("")}</svg>`;
  return sharp(screen.data, { raw: { width: screen.width, height: screen.height, channels: 3 } })
    .resize(w, h, { fit: "fill" })
    .composite([{ input: Buffer.from(svg), top: 0, left: 0 }])
    .jpeg({ quality: options.quality })
    .toBuffer();
}
