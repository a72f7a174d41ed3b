import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../src/shared/image.js";
import { proposeGlyphs } from "../../src/vision/glyphs.js";
import { centreX, centreY, contains } from "../../src/vision/row.js";

/**
 * A screenshot published at 320 px wide (a 2× 640 px one halved): ~0.81 px/pt, so a symbol's
 * anti-aliased edge pixel covers more than a point. The show-password eye (SF `eye`, ~24 × 14 pt, a
 * 2 pt stroke in `secondaryLabel` grey) at a password field's end, rendered by librsvg.
 */
const W_PT = 393;
const H_PT = 852;
const EX = 345;
const EY = 295;

async function eyeScreen(px: number, bg: string, stroke: number, texture = false): Promise<RgbImage> {
  const stripes = texture
    ? Array.from(
        { length: 40 },
        (_, i) => `<rect x="${250 + i * 3.5}" y="270" width="1.5" height="50" fill="#777"/>`,
      )
        .filter((_, i) => Math.abs(250 + i * 3.5 - EX) > 16)
        .join("")
    : "";
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${px}" height="${Math.round((px * H_PT) / W_PT)}" viewBox="0 0 ${W_PT} ${H_PT}"><rect width="${W_PT}" height="${H_PT}" fill="${bg}"/>${stripes}<path d="M ${EX - 12} ${EY} Q ${EX} ${EY - 11} ${EX + 12} ${EY} Q ${EX} ${EY + 11} ${EX - 12} ${EY} Z" fill="none" stroke="#8e8e93" stroke-width="${stroke}"/><circle cx="${EX}" cy="${EY}" r="3.6" fill="#8e8e93"/></svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: 3, data };
}

const found = (img: RgbImage): boolean =>
  proposeGlyphs(img, []).some(
    (r) => contains(r.box, EX / W_PT, EY / H_PT) && contains(r.box, centreX(r.box), centreY(r.box)),
  );

describe("glyphs on a screenshot under 1 px/pt", () => {
  it("finds a bold eye whose anti-aliased fringe fills the narrow margin", async () => {
    expect(found(await eyeScreen(320, "#fff", 2))).toBe(true);
    expect(found(await eyeScreen(320, "#fff", 1.3))).toBe(true);
    expect(found(await eyeScreen(750, "#fff", 2))).toBe(true);
  });

  it("still refuses it on a textured margin at that scale", async () => {
    expect(found(await eyeScreen(320, "#fff", 2, true))).toBe(false);
  });
});
