import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { realScreenSchema } from "../../src/lab/real/labels.js";
import type { RgbImage } from "../../src/shared/image.js";
import { proposeGlyphs } from "../../src/vision/glyphs.js";
import { nameIconButtons } from "../../src/vision/icon-shapes.js";
import type { Candidate } from "../../src/vision/row.js";
import { defaultVisionStack } from "./vision-stack.js";

/** A 390×844 pt white screen at 2 px/pt; `plus` strokes a thin iOS-blue + of `size` pt centred at (x, y) pt. */
function screen(): RgbImage {
  const width = 780;
  const height = 1688;
  return { width, height, channels: 3, data: Buffer.alloc(width * height * 3, 255) };
}
function plus(img: RgbImage, x: number, y: number, size: number): void {
  const s = 2;
  for (let d = -size / 2; d <= size / 2; d += 0.25)
    for (let t = -0.9; t <= 0.9; t += 0.25)
      for (const [px, py] of [
        [x + d, y + t],
        [x + t, y + d],
      ] as const)
        img.data.set([0, 122, 255], (Math.round(py * s) * img.width + Math.round(px * s)) * 3);
}
const ptBox = (l: number, t: number, r: number, b: number): [number, number, number, number] => [
  l / 390,
  t / 844,
  r / 390,
  b / 844,
];

describe("proposeGlyphs", () => {
  it("lists a lone thin symbol in a bar, named by its shape, and nothing on a blank screen", () => {
    const img = screen();
    expect(proposeGlyphs(img, [])).toEqual([]);
    plus(img, 360, 70, 20);
    const found = proposeGlyphs(img, []);
    expect(found).toHaveLength(1);
    const [row] = found;
    expect(((row?.box[0] ?? 0) + (row?.box[2] ?? 0)) / 2).toBeCloseTo(360 / 390, 2);
    expect(((row?.box[1] ?? 0) + (row?.box[3] ?? 0)) / 2).toBeCloseTo(70 / 844, 2);
    expect(nameIconButtons(img, found)[0]).toMatchObject({ kind: "button", label: "add" });
  });

  it("leaves symbols already on a row, leading a text line, or on a textured picture", () => {
    const img = screen();
    plus(img, 360, 70, 20); // under a detected icon row
    plus(img, 30, 300, 20); // leads the text row "Add Account"
    // A textured area (a photo): random grey noise, with a symbol drawn on it.
    let seed = 7;
    for (let y = 900; y < 1300; y++)
      for (let x = 100; x < 700; x++) {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        const v = 80 + (seed % 120);
        img.data.set([v, v, v], (y * img.width + x) * 3);
      }
    plus(img, 200, 550, 20);
    plus(img, 200, 700, 60); // too large for a symbol (60 pt)
    const rows: Candidate[] = [
      { kind: "icon", label: "", box: ptBox(345, 55, 375, 85), conf: 0.8 },
      { kind: "text", label: "Add Account", box: ptBox(48, 292, 160, 308), conf: 0.9 },
    ];
    expect(proposeGlyphs(img, rows)).toEqual([]);
  });
});

/** Real screenshots: icon-only buttons the UI detector misses are listed and named by their shape. */
describe("icon-only buttons on real screenshots", () => {
  const vision = defaultVisionStack();
  const DATASET = join(import.meta.dirname, "..", "..", "datasets", "real-iphone");

  const rowsOn = async (id: string, element: string) => {
    const label = realScreenSchema.parse(
      JSON.parse(readFileSync(join(DATASET, "labels", `${id}.json`), "utf8")),
    );
    const view = await vision().pipeline.fromScreenshot(readFileSync(join(DATASET, "images", label.image)));
    const e = label.elements.find((el) => el.iconOnly && el.label === element);
    if (!e) throw new Error(`no icon-only "${element}" in ${id}`);
    return view.entries.filter((r) => {
      const x = (r.box[0] + r.box[2]) / 2;
      const y = (r.box[1] + r.box[3]) / 2;
      return x >= e.box[0] && x <= e.box[2] && y >= e.box[1] && y <= e.box[3];
    });
  };

  it("finds and names the share and back buttons of a keyboard app's nav bar", async () => {
    expect(await rowsOn("rb-universekb-l1-reopen", "share")).toContainEqual(
      expect.objectContaining({ kind: "button", label: "share" }),
    );
    expect((await rowsOn("rb-universekb-l1-reopen", "back")).length).toBeGreaterThan(0);
  }, 60_000);

  it("names a browser page's menu button (≡)", async () => {
    expect(await rowsOn("ra-ntfy-safari-page", "menu")).toContainEqual(
      expect.objectContaining({ kind: "button", label: "menu" }),
    );
  }, 60_000);
});
