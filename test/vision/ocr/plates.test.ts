import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import { SCREENSHOT_WIDTH } from "../../../src/vision/config.js";
import type { PaddleOcrEngine } from "../../../src/vision/ocr/index.js";
import { plateSlots } from "../../../src/vision/ocr/plates.js";
import { workingWidth } from "../../../src/vision/pipeline.js";
import { shrinkRgb } from "../../../src/vision/rectify.js";
import { loadRealImage, realLabel } from "../real-set.js";
import { filmScreenshot } from "./filmed-real.js";
import {
  CHIPS_AND_BADGES,
  DARK_TILES,
  LIGHT_TILES,
  type PlateRow,
  plateScreen,
  plateScreenPng,
} from "./plate-synth.js";
import { useRealOcrEngine } from "./real-engine.js";

const working = (image: RgbImage): RgbImage => shrinkRgb(image, workingWidth(image.width, SCREENSHOT_WIDTH));

/** Read as the pipeline reads a screenshot: found on the working-size copy, read from the full size. */
async function read(engine: PaddleOcrEngine, image: RgbImage): Promise<string[]> {
  return (await engine.recognize(working(image), image)).map((l) => l.text);
}

describe("plateSlots: small flat-filled shapes that carry a label", () => {
  it("finds each tile, chip, disc and capsule, one slot per plate, inside it", async () => {
    for (const rows of [DARK_TILES, LIGHT_TILES, CHIPS_AND_BADGES]) {
      const image = await plateScreen(rows, rows === DARK_TILES);
      // Below the large title (a 34 pt glyph's counter is a flat region too, holding no label).
      const slots = plateSlots(working(image), image).filter((s) => s.plate.y0 > 120 * 3);
      expect(slots).toHaveLength(rows.length);
      slots.forEach((s, i) => {
        // Rows are 64 pt apart from 130 pt, the plate centred 28 pt into its row (3 px a point).
        const cy = (s.plate.y0 + s.plate.y1) / 2 / 3;
        expect(Math.abs(cy - (130 + 64 * i + 28))).toBeLessThan(2);
        expect(s.inner.x0).toBeGreaterThan(s.plate.x0);
        expect(s.inner.y1).toBeLessThan(s.plate.y1);
      });
    }
  });

  it("finds none on plain rows, an app-icon-sized tile or a full-width card", async () => {
    const grey: PlateRow["fill"] = [229, 229, 234];
    const rows: PlateRow[] = [
      // A 60 pt square (an app icon's size: taller than any plate) and a 2 pt separator-like bar.
      { label: "A", shape: "tile", fill: grey, ink: [72, 72, 74], size: 60, text: 20, title: "Big tile" },
      { label: "", shape: "chip", fill: grey, ink: grey, size: 2, text: 2, title: "Thin bar" },
      // A plate the colour of the page: no edge, nothing stands out.
      {
        label: "B",
        shape: "tile",
        fill: [255, 255, 255],
        ink: [72, 72, 74],
        size: 40,
        text: 20,
        title: "Flat",
      },
    ];
    const image = await plateScreen(rows);
    expect(plateSlots(working(image), image).filter((s) => s.plate.y0 > 120 * 3)).toEqual([]);
  });
});

describe("labels on plates read by the real OCR", () => {
  const engine = useRealOcrEngine();

  it("reads route and letter tiles (dark) and keeps the digit of `3 min` under a title", async () => {
    const lines = await read(engine(), await plateScreen(DARK_TILES, true));
    for (const t of ["F", "M", "P3", "71C", "3 min", "7 min", "11 min"]) expect(lines, t).toContain(t);
  }, 60_000);

  it("reads a lone `F` on a light tile as `F` (the detector's crop read `E`)", async () => {
    const lines = await read(engine(), await plateScreen(LIGHT_TILES));
    expect(lines).toContain("F");
    expect(lines).not.toContain("E");
  }, 60_000);

  it("reads route chips, count badges of any colour and a capsule tag", async () => {
    const lines = await read(engine(), await plateScreen(CHIPS_AND_BADGES));
    for (const t of ["U8", "S3", "3", "7", "UDP"]) expect(lines, t).toContain(t);
  }, 60_000);

  it("reads them on a camera frame too", async () => {
    const frame = await filmScreenshot(await plateScreenPng(CHIPS_AND_BADGES), 11);
    const lines = (await engine().recognize(frame)).map((l) => l.text);
    for (const t of ["U8", "S3", "3", "7"]) expect(lines, t).toContain(t);
  }, 120_000);

  it("reads an initials avatar and a station's count badge on real screenshots", async () => {
    expect(await read(engine(), await loadRealImage("rb-messagekit-chat.png"))).toContain("SD");
    expect(await read(engine(), await loadRealImage("rc-gogoro-map-station.jpg"))).toContain("3");
  }, 60_000);

  it("adds no short line that is not on the screen to settings lists with coloured icon tiles", async () => {
    for (const name of ["rv-iqkm-settings.png", "ra-noupdatecircles-settings.png"]) {
      const truth = new Set(realLabel(name).text.map((t) => t.text));
      const short = (await read(engine(), await loadRealImage(name))).filter((l) => /^\S{1,3}$/u.test(l));
      expect(
        short.filter((l) => !truth.has(l)),
        name,
      ).toEqual([]);
    }
  }, 60_000);
});
