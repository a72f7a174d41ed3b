import sharp from "sharp";
import { FontBook } from "../../../src/shared/fonts.js";
import type { RgbImage } from "../../../src/shared/image.js";

/** Point sizes of lone glyphs drawn: a caption's 11 pt up to a large title's 34 pt. */
const SIZES = [11, 13, 17, 22, 28, 34] as const;

/**
 * A 390 × 844 pt screen at 3×, light or dark: a column of lone digits (one per size, semibold, as a
 * count or a chart's axis label) at the leading margin and, at the trailing margin, glyph-sized symbols
 * that are not digits — rings (a `circle` symbol, a record button), discs and a ring with a dot (a radio
 * button) — at the same sizes. The font is the repo's Noto Sans SC (SF Pro is not redistributable).
 */
export async function digitScreen(dark: boolean): Promise<RgbImage> {
  const fonts = new FontBook();
  const fg = dark ? "#ffffff" : "#000000";
  const parts = [`<rect width="390" height="844" fill="${dark ? "#000000" : "#ffffff"}"/>`];
  SIZES.forEach((size, i) => {
    const y = 120 + i * 110;
    parts.push(fonts.shape(String((i * 3 + 2) % 10), 40, y, { size, weight: "semibold", fill: fg }).svg);
    const r = 0.36 * size;
    const cy = y - r;
    parts.push(
      `<circle cx="250" cy="${cy}" r="${r}" fill="none" stroke="${fg}" stroke-width="${size / 10}"/>`,
    );
    parts.push(`<circle cx="300" cy="${cy}" r="${r}" fill="${fg}"/>`);
    parts.push(
      `<circle cx="350" cy="${cy}" r="${r}" fill="none" stroke="${fg}" stroke-width="${size / 12}"/>`,
    );
    parts.push(`<circle cx="350" cy="${cy}" r="${r / 3}" fill="${fg}"/>`);
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1170" height="2532" viewBox="0 0 390 844">${parts.join("")}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: 3, data };
}
