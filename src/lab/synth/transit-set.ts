import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import sharp from "sharp";
import type { FontBook } from "../../shared/fonts.js";
import { rasterize, svgDocument } from "../../sim/phone/render.js";
import type { Rect } from "../../sim/phone/svg.js";
import { seededRandom } from "../../util/random.js";
import type { RealScreen } from "../real/labels.js";
import { scaledGeometry } from "./dataset.js";
import { transitScreen } from "./transit-screens.js";

/**
 * A synthetic transit-arrival set in the real-screen format (`images/` + `labels/`, schema
 * src/lab/real/labels.ts), so `bench/real-screens.ts` scores it exactly like the real sets, screenshot
 * or filmed by the simulated camera.
 */

/** Screen `index` of the set seeded `seed`: its label (boxes as 0–1 fractions) and a renderer. */
export function transitSample(
  seed: number,
  index: number,
  fonts: FontBook,
  width: number,
): { label: RealScreen; render: () => Promise<Buffer> } {
  const rng = seededRandom((Math.imul(seed, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0);
  const g = scaledGeometry(width);
  const { width: W, height: H } = g.screenPt;
  const s = transitScreen(rng, fonts, W, H);
  const r4 = (v: number): number => Math.round(Math.min(1, Math.max(0, v)) * 1e4) / 1e4;
  const box = (r: Rect): [number, number, number, number] => [
    r4(r.x / W),
    r4(r.y / H),
    r4((r.x + r.w) / W),
    r4((r.y + r.h) / H),
  ];
  const image = `tr-${String(index).padStart(4, "0")}.png`;
  const label: RealScreen = {
    image,
    width: g.screenPx.width,
    height: g.screenPx.height,
    lang: s.locale,
    theme: s.dark ? "dark" : "light",
    screen: "app",
    statusBar: box({ x: 0, y: 0, w: W, h: s.statusH }),
    text: s.truth.text.map((l) => ({ text: l.text, box: box(l.rect) })),
    elements: s.truth.elements.map((e) => ({
      kind: e.kind,
      label: e.label,
      iconOnly: e.iconOnly,
      ...(e.state ? { state: e.state } : {}),
      box: box(e.rect),
    })),
    notes: `synthetic transit screen, seed ${seed}`,
    unlabelled: s.truth.unlabelled.map((u) => ({ box: box(u.rect), why: u.why })),
  };
  const render = async (): Promise<Buffer> => {
    const img = await rasterize(svgDocument(s.scene.body(), g), g);
    return sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } })
      .removeAlpha()
      .png({ compressionLevel: 3 })
      .toBuffer();
  };
  return { label, render };
}

/** Write `count` screens to `outDir/images` and `outDir/labels`. */
export async function writeTransitSet(
  outDir: string,
  seed: number,
  count: number,
  fonts: FontBook,
  width = 1170,
): Promise<void> {
  await mkdir(join(outDir, "images"), { recursive: true });
  await mkdir(join(outDir, "labels"), { recursive: true });
  for (let i = 0; i < count; i++) {
    const { label, render } = transitSample(seed, i, fonts, width);
    await writeFile(join(outDir, "images", label.image), await render());
    await writeFile(
      join(outDir, "labels", label.image.replace(/\.png$/, ".json")),
      JSON.stringify(label, null, 1),
    );
  }
}
