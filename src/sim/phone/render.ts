import sharp from "sharp";
import type { RawImage } from "../../shared/image.js";
import type { PhoneGeometry } from "../../shared/phone-model.js";
import { DEFS } from "./theme.js";

/** Wrap a scene body in an SVG document drawn in points and sized to the panel's pixels. */
export function svgDocument(body: string, g: PhoneGeometry): string {
  const { width: w, height: h } = g.screenPt;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${g.screenPx.width}" height="${g.screenPx.height}" viewBox="0 0 ${w} ${h}">` +
    `<defs>${DEFS}</defs>${body}</svg>`
  );
}

/** Rasterize to RGBA at exactly the panel size. */
export async function rasterize(svg: string, g: PhoneGeometry): Promise<RawImage> {
  const { width, height } = g.screenPx;
  let img = sharp(Buffer.from(svg), { limitInputPixels: false });
  const meta = await img.metadata();
  if (meta.width !== width || meta.height !== height) img = img.resize(width, height, { fit: "fill" });
  const { data, info } = await img.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: 4, data };
}

export async function encodePng(img: RawImage): Promise<Buffer> {
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } })
    .png()
    .toBuffer();
}
