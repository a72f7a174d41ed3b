import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import sharp from "sharp";
import type { FontBook } from "../../shared/fonts.js";
import type { RawImage } from "../../shared/image.js";
import { IPHONE_61, type PhoneGeometry } from "../../shared/phone-model.js";
import { rasterize, svgDocument } from "../../sim/phone/render.js";
import type { ScreenElement } from "../../sim/types.js";
import { type Random, seededRandom } from "../../util/random.js";
import { iosScreen } from "./ios-screens.js";
import { randomLayout } from "./layout.js";
import { randomPhone } from "./phone-walk.js";
import { chance } from "./pick.js";

/**
 * Synthetic training screens for the UI-element detector: half from the simulated phone in random
 * states; of the other half, two thirds iOS-style screens at real metrics (keyboards, dial pad,
 * switches, symbols, wallpapers; ios-screens.ts) and one third random layouts (layout.ts). Each screen is a PNG of the flat (unrectified-camera-free) screen plus
 * its labelled boxes; the photo treatment (perspective, blur, glare, moiré, JPEG…) is applied by the
 * training recipe in models/icon-detector/.
 */

/** Detector classes, in output-channel order. Matches the simulated phone's element kinds. */
export const DETECTOR_CLASSES = ["icon", "text", "control"] as const;
export type DetectorClass = (typeof DETECTOR_CLASSES)[number];

/** One labelled box in pixels of its screen image. */
export interface LabelledBox {
  cls: DetectorClass;
  /** `[left, top, right, bottom]` in pixels. */
  box: [number, number, number, number];
  label: string;
}

export interface SyntheticScreen {
  image: RawImage;
  source: "phone" | "layout";
  boxes: LabelledBox[];
}

/** The 6.1" phone drawn at `width` pixels wide (same points, glass and layout; fewer pixels). */
export function scaledGeometry(width: number): PhoneGeometry {
  const k = width / IPHONE_61.screenPt.width;
  return {
    ...IPHONE_61,
    screenPx: { width: Math.round(width), height: Math.round(IPHONE_61.screenPt.height * k) },
  };
}

/** A Home-button iPhone (375×667 pt) drawn at `width` pixels wide. */
function classicGeometry(width: number): PhoneGeometry {
  const screenPt = { width: 375, height: 667 };
  return { ...IPHONE_61, screenPt, screenPx: { width, height: Math.round((667 / 375) * width) } };
}

/** Elements at least `minPx` on each side, in pixels; everything else (specks, slivers) is dropped. */
export function toPixelBoxes(
  elements: ScreenElement[],
  width: number,
  height: number,
  minPx = 2,
): LabelledBox[] {
  const out: LabelledBox[] = [];
  for (const e of elements) {
    const box: LabelledBox["box"] = [
      e.box[0] * width,
      e.box[1] * height,
      e.box[2] * width,
      e.box[3] * height,
    ];
    if (box[2] - box[0] < minPx || box[3] - box[1] < minPx) continue;
    out.push({
      cls: e.kind,
      box: box.map((v) => Math.round(v * 10) / 10) as LabelledBox["box"],
      label: e.label,
    });
  }
  return out;
}

/** A screen's labels and size, with its (costly) rasterization left for later. */
interface PlannedScreen {
  source: SyntheticScreen["source"];
  boxes: LabelledBox[];
  render(): Promise<RawImage>;
}

function planScreen(seed: number, index: number, fonts: FontBook, geometry: PhoneGeometry): PlannedScreen {
  const rng: Random = seededRandom((Math.imul(seed, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0);
  const { width, height } = geometry.screenPx;
  if (rng.next() < 0.5) {
    const { phone } = randomPhone(rng, fonts, geometry);
    const boxes = toPixelBoxes(phone.truth().elements, width, height);
    return { source: "phone", boxes, render: () => phone.renderScreen() };
  }
  // Two in three of the non-phone screens are iOS-style screens at real metrics (ios-screens.ts), a
  // quarter of those on a Home-button phone (375×667 pt, 16:9), as many public screenshots are.
  const ios = chance(rng, 0.65);
  const g = ios && chance(rng, 0.25) ? classicGeometry(geometry.screenPx.width) : geometry;
  const { width: W, height: H } = g.screenPt;
  const scene = ios ? iosScreen(rng, fonts, W, H) : randomLayout(rng, fonts, W, H);
  const boxes = toPixelBoxes(scene.truth(), g.screenPx.width, g.screenPx.height);
  return { source: "layout", boxes, render: () => rasterize(svgDocument(scene.body(), g), g) };
}

/** Screen number `index` of the data set seeded with `seed` (each screen has its own stream). */
export async function syntheticScreen(
  seed: number,
  index: number,
  fonts: FontBook,
  geometry: PhoneGeometry,
): Promise<SyntheticScreen> {
  const plan = planScreen(seed, index, fonts, geometry);
  return { image: await plan.render(), source: plan.source, boxes: plan.boxes };
}

export interface DatasetOptions {
  outDir: string;
  seed: number;
  /** First screen index (lets several processes share one data set). */
  start: number;
  count: number;
  /** Rendered screen width in pixels (height follows the phone's aspect). */
  width: number;
  fonts: FontBook;
  /** Keep PNGs already in `outDir` (same seed and width) and only recompute their labels. */
  resume?: boolean;
  onProgress?: (done: number) => void;
}

/** Write `images/NNNNNN.png` and `labels-START.json` (one entry per screen) under `outDir`. */
export async function writeDataset(opts: DatasetOptions): Promise<string> {
  const geometry = scaledGeometry(opts.width);
  await mkdir(join(opts.outDir, "images"), { recursive: true });
  const entries: unknown[] = [];
  for (let i = opts.start; i < opts.start + opts.count; i++) {
    const s = planScreen(opts.seed, i, opts.fonts, geometry);
    const file = `images/${String(i).padStart(6, "0")}.png`;
    const path = join(opts.outDir, file);
    let size: { width: number; height: number };
    if (opts.resume && existsSync(path)) {
      const meta = await sharp(path).metadata();
      size = { width: meta.width ?? 0, height: meta.height ?? 0 };
    } else {
      const image = await s.render();
      const png = await sharp(image.data, {
        raw: { width: image.width, height: image.height, channels: image.channels },
      })
        .removeAlpha()
        .png({ compressionLevel: 3 })
        .toBuffer();
      await writeFile(path, png);
      size = { width: image.width, height: image.height };
    }
    entries.push({ file, ...size, source: s.source, boxes: s.boxes.map((b) => [...b.box, b.cls]) });
    opts.onProgress?.(i - opts.start + 1);
  }
  const labels = join(opts.outDir, `labels-${String(opts.start).padStart(6, "0")}.json`);
  await writeFile(labels, JSON.stringify({ seed: opts.seed, classes: DETECTOR_CLASSES, screens: entries }));
  return labels;
}
