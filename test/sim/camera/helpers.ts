import sharp from "sharp";
import { FontBook } from "../../../src/shared/fonts.js";
import type { RawImage } from "../../../src/shared/image.js";
import { IPHONE_61, type PhoneGeometry } from "../../../src/shared/phone-model.js";
import type { ScreenSource } from "../../../src/sim/types.js";

/** Screen pixels per glass millimetre of a geometry. */
export const pxPerMm = (g: PhoneGeometry): number => g.screenPx.width / g.glassMm.width;

/**
 * A dark screen with small bright discs at known glass points: the target of the projection tests.
 * The RawImage is built once, so the camera's prefilter cache sees an unchanged screen.
 */
export function dotScreen(
  dots: { xMm: number; yMm: number }[],
  radiusPx = 14,
  geometry: PhoneGeometry = IPHONE_61,
): ScreenSource & { calls: number } {
  const { width, height } = geometry.screenPx;
  const data = Buffer.alloc(width * height * 3, 6);
  const k = pxPerMm(geometry);
  for (const d of dots) {
    const cx = d.xMm * k;
    const cy = d.yMm * k;
    for (let y = Math.floor(cy - radiusPx - 2); y <= Math.ceil(cy + radiusPx + 2); y++) {
      for (let x = Math.floor(cx - radiusPx - 2); x <= Math.ceil(cx + radiusPx + 2); x++) {
        if (x < 0 || y < 0 || x >= width || y >= height) continue;
        // Antialiased disc (coverage by distance of the pixel centre) so its centroid is unbiased.
        const r = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
        const c = Math.min(1, Math.max(0, radiusPx + 0.5 - r));
        const o = (y * width + x) * 3;
        for (let ch = 0; ch < 3; ch++) data[o + ch] = Math.round(6 + c * 249);
      }
    }
  }
  const image: RawImage = { width, height, channels: 3, data };
  const source = {
    geometry,
    calls: 0,
    async renderScreen(): Promise<RawImage> {
      source.calls++;
      return image;
    },
  };
  return source;
}

/** A uniformly coloured screen. */
export function flatScreen(rgb: [number, number, number], geometry: PhoneGeometry = IPHONE_61): ScreenSource {
  const { width, height } = geometry.screenPx;
  const data = Buffer.alloc(width * height * 3);
  for (let i = 0; i < data.length; i += 3) {
    data[i] = rgb[0];
    data[i + 1] = rgb[1];
    data[i + 2] = rgb[2];
  }
  const image: RawImage = { width, height, channels: 3, data };
  return { geometry, renderScreen: async () => image };
}

/** A phone-like home screen (status bar, icon grid, a message list with real text), as RGB. */
export async function phoneLikeScreen(geometry: PhoneGeometry = IPHONE_61): Promise<ScreenSource> {
  const fonts = new FontBook();
  const { width: pw, height: ph } = geometry.screenPt;
  const parts: string[] = [`<rect width="${pw}" height="${ph}" fill="#f2f2f7"/>`];
  parts.push(fonts.shape("9:41", 30, 34, { size: 17, weight: "semibold", fill: "#000" }).svg);
  parts.push(fonts.shape("Messages", 20, 110, { size: 34, weight: "semibold", fill: "#000" }).svg);
  const colors = ["#34c759", "#007aff", "#ff9500", "#ff2d55", "#5856d6", "#af52de", "#ffcc00", "#5ac8fa"];
  for (let i = 0; i < 8; i++) {
    const x = 27 + (i % 4) * 90;
    const y = 140 + Math.floor(i / 4) * 100;
    parts.push(`<rect x="${x}" y="${y}" width="64" height="64" rx="14" fill="${colors[i]}"/>`);
    parts.push(fonts.shape(`App ${i + 1}`, x + 32, y + 82, { size: 12, fill: "#333", anchor: "middle" }).svg);
  }
  for (let i = 0; i < 6; i++) {
    const y = 360 + i * 72;
    parts.push(`<circle cx="46" cy="${y + 30}" r="24" fill="#c7c7cc"/>`);
    parts.push(fonts.shape(`Contact ${i + 1} 你好`, 84, y + 24, { size: 17, weight: "semibold" }).svg);
    parts.push(fonts.shape("The quick brown fox jumps over the lazy dog", 84, y + 48, { size: 15 }).svg);
    parts.push(`<rect x="84" y="${y + 66}" width="290" height="1" fill="#c6c6c8"/>`);
  }
  parts.push(`<rect x="${pw / 2 - 67}" y="${ph - 13}" width="134" height="5" rx="2.5" fill="#000"/>`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${geometry.screenPx.width}" height="${geometry.screenPx.height}" viewBox="0 0 ${pw} ${ph}">${parts.join("")}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const image: RawImage = { width: info.width, height: info.height, channels: 3, data };
  return { geometry, renderScreen: async () => image };
}

/** Intensity-weighted centroid of (luma − threshold) over a window, in continuous pixel coordinates. */
export function centroid(
  img: RawImage,
  around: { u: number; v: number },
  radius: number,
  threshold: number,
): { u: number; v: number; mass: number } {
  let su = 0;
  let sv = 0;
  let m = 0;
  const x0 = Math.max(0, Math.floor(around.u - radius));
  const x1 = Math.min(img.width - 1, Math.ceil(around.u + radius));
  const y0 = Math.max(0, Math.floor(around.v - radius));
  const y1 = Math.min(img.height - 1, Math.ceil(around.v + radius));
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const o = (y * img.width + x) * img.channels;
      const luma = ((img.data[o] ?? 0) + (img.data[o + 1] ?? 0) + (img.data[o + 2] ?? 0)) / 3;
      const w = luma - threshold;
      if (w <= 0) continue;
      su += w * (x + 0.5);
      sv += w * (y + 0.5);
      m += w;
    }
  }
  return { u: su / m, v: sv / m, mass: m };
}

/** Mean luma over a box of pixels. */
export function meanLuma(img: RawImage, x0: number, y0: number, x1: number, y1: number): number {
  let s = 0;
  let n = 0;
  for (let y = Math.max(0, y0); y < Math.min(img.height, y1); y++) {
    for (let x = Math.max(0, x0); x < Math.min(img.width, x1); x++) {
      const o = (y * img.width + x) * img.channels;
      s += ((img.data[o] ?? 0) + (img.data[o + 1] ?? 0) + (img.data[o + 2] ?? 0)) / 3;
      n++;
    }
  }
  return n === 0 ? 0 : s / n;
}
