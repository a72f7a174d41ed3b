import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import { useRealOcrEngine } from "./real-engine.js";

/**
 * Grey secondary text on black, drawn as iOS draws it in dark mode (Apple HIG "Color", UIKit's semantic
 * colours): `secondaryLabel` is #EBEBF5 at 60% — #8D8D93 on the #000 page, #98989F on a #1C1C1E
 * grouped cell — and `tertiaryLabel` #EBEBF5 at 30% — #464649 on black (contrast ~2:1), #5A5A5F on a
 * cell. Values, section footers and chart axis labels 11–17 pt on a 390 × 844 pt screen at 3×, read by
 * the real PP-OCRv4 models. A guard for the low-contrast class of the blind sets (check 7's grey `Off`,
 * axis labels, a ring's caption): on screenshots every line here is read; a cut-off for faint regions
 * must not lose them.
 */
const COLOURS = {
  secondary: { page: "#8D8D93", cell: "#98989F" },
  tertiary: { page: "#464649", cell: "#5A5A5F" },
} as const;

const LINES: readonly { text: string; size: number; on: "page" | "cell"; x: number; y: number }[] = [
  { text: "GENERAL", size: 13, on: "page", x: 36, y: 120 },
  { text: "Off", size: 17, on: "cell", x: 300, y: 160 },
  { text: "Never", size: 15, on: "cell", x: 290, y: 204 },
  { text: "8:00 PM", size: 13, on: "cell", x: 280, y: 248 },
  { text: "Readings update every 5 minutes.", size: 13, on: "page", x: 36, y: 296 },
  { text: "Not Set", size: 12, on: "cell", x: 290, y: 344 },
  { text: "180", size: 11, on: "page", x: 344, y: 420 },
  { text: "9:00 P", size: 11, on: "page", x: 120, y: 560 },
];

async function screen(kind: keyof typeof COLOURS): Promise<RgbImage> {
  let body = `<rect width="390" height="844" fill="#000"/><rect x="16" y="136" width="358" height="132" rx="10" fill="#1C1C1E"/>`;
  body += `<rect x="16" y="320" width="358" height="44" rx="10" fill="#1C1C1E"/>`;
  for (let g = 0; g < 4; g++)
    body += `<rect x="16" y="${416 + g * 40}" width="320" height="1" fill="#38383A"/>`;
  for (const l of LINES)
    body += `<text x="${l.x}" y="${l.y}" font-family="sans-serif" font-size="${l.size}" fill="${COLOURS[kind][l.on]}">${l.text}</text>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1170" height="2532" viewBox="0 0 390 844">${body}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: 3, data };
}

describe("grey secondary and tertiary text on black (dark mode)", () => {
  const engine = useRealOcrEngine();

  for (const kind of ["secondary", "tertiary"] as const)
    it(`reads every ${kind}Label line on the page and on grouped cells`, async () => {
      const texts = (await engine().recognize(await screen(kind))).map((l) => l.text);
      for (const l of LINES) expect(texts).toContain(l.text);
    }, 60_000);
});
