import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { realScreenSchema } from "../../src/lab/real/labels.js";
import type { RgbImage } from "../../src/shared/image.js";
import { proposeGlyphs } from "../../src/vision/glyphs.js";
import { defaultVisionStack } from "./vision-stack.js";

/** Points to pixels: a 390 × 844 pt screen at 2 px/pt. */
const S = 2;
const W = 390 * S;
const H = 844 * S;

/** A screen of one fill, with a faint vertical gradient (a material's shading). */
function screen(rgb: readonly [number, number, number]): RgbImage {
  const data = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const shade = Math.round((4 * y) / H);
      data.set([rgb[0] + shade, rgb[1] + shade, rgb[2] + shade], (y * W + x) * 3);
    }
  return { width: W, height: H, channels: 3, data };
}

/** Fills the rectangle of `l`…`r` × `t`…`b` pt with `rgb`. */
function rect(img: RgbImage, l: number, t: number, r: number, b: number, rgb: readonly number[]): void {
  for (let y = Math.round(t * S); y < Math.round(b * S); y++)
    for (let x = Math.round(l * S); x < Math.round(r * S); x++) img.data.set(rgb, (y * W + x) * 3);
}

/** SF Symbols' `pause.fill` as the lock screen's Now Playing draws it: two bold bars, ~30 pt tall. */
function pause(img: RgbImage, cx: number, cy: number): void {
  rect(img, cx - 12, cy - 15, cx - 4, cy + 15, [255, 255, 255]);
  rect(img, cx + 4, cy - 15, cx + 12, cy + 15, [255, 255, 255]);
}

const centre = (b: readonly number[]): [number, number] => [
  (((b[0] ?? 0) + (b[2] ?? 0)) / 2) * 390,
  (((b[1] ?? 0) + (b[3] ?? 0)) / 2) * 844,
];

describe("bold symbols merged with their fill (resplitBold)", () => {
  it("lists a bold white ⏸ on a dark material as one symbol", () => {
    const img = screen([52, 36, 70]);
    expect(proposeGlyphs(img, [])).toEqual([]);
    pause(img, 195, 650);
    const found = proposeGlyphs(img, []);
    expect(found).toHaveLength(1);
    const [x, y] = centre(found[0]?.box ?? []);
    expect(x).toBeCloseTo(195, -1);
    expect(y).toBeCloseTo(650, -1);
  });

  it("lists nothing for text-sized bars, a card, or a photo's bright patches", () => {
    const img = screen([52, 36, 70]);
    // A light card (a bold block far over the symbol size) and bright patches on a noisy photo.
    rect(img, 20, 100, 370, 300, [235, 235, 240]);
    let seed = 11;
    for (let y = 400 * S; y < 560 * S; y++)
      for (let x = 40 * S; x < 350 * S; x++) {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        const v = 60 + (seed % 140);
        img.data.set([v, v, v], (y * W + x) * 3);
      }
    rect(img, 100, 450, 124, 480, [255, 255, 255]);
    expect(proposeGlyphs(img, [])).toEqual([]);
  });
});

/** The lock screen's Now Playing card (iOS 26): its white ⏸ between dimmed ⏮ and ⏭. */
describe("bold media symbols on a real screenshot", () => {
  const vision = defaultVisionStack();
  const DATASET = join(import.meta.dirname, "..", "..", "datasets", "real-iphone");

  it("lists the pause button of the lock screen's Now Playing card", async () => {
    const id = "ra-azura-lock-now-playing";
    const label = realScreenSchema.parse(
      JSON.parse(readFileSync(join(DATASET, "labels", `${id}.json`), "utf8")),
    );
    const view = await vision().pipeline.fromScreenshot(readFileSync(join(DATASET, "images", label.image)));
    const e = label.elements.find((el) => el.label === "pause");
    if (!e) throw new Error("no pause button");
    const on = view.entries.filter((r) => {
      const [x, y] = [(r.box[0] + r.box[2]) / 2, (r.box[1] + r.box[3]) / 2];
      return x >= e.box[0] && x <= e.box[2] && y >= e.box[1] && y <= e.box[3];
    });
    expect(on.length).toBeGreaterThan(0);
  }, 60_000);
});
