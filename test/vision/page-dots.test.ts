import { readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { realScreenSchema } from "../../src/lab/real/labels.js";
import { proposeGlyphs } from "../../src/vision/glyphs.js";
import { type DotBlob, findPageDots } from "../../src/vision/page-dots.js";

const DIR = join(import.meta.dirname, "../../datasets/real-iphone");

describe("findPageDots", () => {
  it("lists a real home screen's page control as one row on the dots", async () => {
    const name = "rd-fordpass-home-widgets-light.jpg";
    const { data, info } = await sharp(join(DIR, "images", name))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const rows = proposeGlyphs({ width: info.width, height: info.height, channels: 3, data }, []);
    const truth = realScreenSchema
      .parse(JSON.parse(readFileSync(join(DIR, "labels", name.replace(/\.jpg$/, ".json")), "utf8")))
      .elements.find((e) => e.label === "page dots");
    const dots = rows.filter((r) => r.label === "page dots");
    expect(dots).toHaveLength(1);
    const [l, t, r, b] = truth?.box ?? [0, 0, 0, 0];
    const box = dots[0]?.box ?? [0, 0, 0, 0];
    const cx = (box[0] + box[2]) / 2;
    const cy = (box[1] + box[3]) / 2;
    expect(cx >= l && cx <= r && cy >= t && cy <= b).toBe(true);
  });

  it("needs equal, evenly spaced dots centred on the screen", () => {
    const pt = 1.5;
    const w = 585;
    const dot = (cx: number, size = 7): DotBlob => ({
      x0: (cx - size / 2) * pt,
      x1: (cx + size / 2) * pt,
      y0: 600,
      y1: 600 + size * pt,
      n: 0.8 * (size * pt) ** 2,
    });
    const centred = [179, 195, 211].map((x) => dot(x));
    expect(findPageDots(centred, w, 1266, pt)?.label).toBe("page dots");
    expect(findPageDots([dot(60), dot(76), dot(92)], w, 1266, pt)).toBeUndefined(); // off centre
    expect(findPageDots([dot(179), dot(195), dot(230)], w, 1266, pt)).toBeUndefined(); // uneven
    expect(findPageDots([dot(185), dot(195), dot(205, 4)], w, 1266, pt)).toBeUndefined(); // unequal
  });
});
