import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { CHART_SPECS, type ChartSpec, chartScreen } from "../../../src/lab/synth/charts.js";
import { FontBook } from "../../../src/shared/fonts.js";
import type { RgbImage } from "../../../src/shared/image.js";
import { SCREENSHOT_WIDTH } from "../../../src/vision/config.js";
import { axisTokens, splitAxisRun } from "../../../src/vision/ocr/axis-labels.js";
import { axisReading, axisSlots } from "../../../src/vision/ocr/axis-slots.js";
import type { PaddleOcrEngine } from "../../../src/vision/ocr/index.js";
import { workingWidth } from "../../../src/vision/pipeline.js";
import { decodeRgb, shrinkRgb } from "../../../src/vision/rectify.js";
import { filmScreenshot } from "./filmed-real.js";
import { useRealOcrEngine } from "./real-engine.js";

const fonts = new FontBook();
const spec = (id: string): ChartSpec => {
  const s = CHART_SPECS.find((c) => c.id === id);
  if (!s) throw new Error(id);
  return s;
};
const screen = async (id: string): Promise<RgbImage> => decodeRgb((await chartScreen(spec(id), fonts)).png);
const working = (image: RgbImage): RgbImage => shrinkRgb(image, workingWidth(image.width, SCREENSHOT_WIDTH));
/** Read as the pipeline reads a screenshot: found on the working-size copy, read from the full size. */
async function read(engine: PaddleOcrEngine, image: RgbImage): Promise<string[]> {
  return (await engine.recognize(working(image), image)).map((l) => l.text);
}

/** A white 400 × 40 image with black 12 × 20 blocks starting at each of `xs` (one "label" each). */
function blocks(xs: readonly number[]): RgbImage {
  const w = 400;
  const h = 40;
  const data = Buffer.alloc(w * h * 3, 255);
  for (const x0 of xs) for (let y = 10; y < 30; y++) data.fill(0, (y * w + x0) * 3, (y * w + x0 + 24) * 3);
  return { width: w, height: h, channels: 3, data };
}

describe("axisTokens: a line that is all axis labels of one format", () => {
  it("parses spaced and glued dates, months, days and hours", () => {
    expect(axisTokens("11/3 11/4 11/5 11/6")).toEqual(["11/3", "11/4", "11/5", "11/6"]);
    expect(axisTokens("11/9 11/1011/1111/12")).toEqual(["11/9", "11/10", "11/11", "11/12"]);
    expect(axisTokens("Nov 3 Nov 4 Nov 5 Nov 10Nov 11")).toEqual([
      "Nov 3",
      "Nov 4",
      "Nov 5",
      "Nov 10",
      "Nov 11",
    ]);
    expect(axisTokens("3日4日5日6日")).toEqual(["3日", "4日", "5日", "6日"]);
    expect(axisTokens("12 AM 6 AM 12 PM 6 PM")).toEqual(["12 AM", "6 AM", "12 PM", "6 PM"]);
    expect(axisTokens("0 10 20 30 40")).toEqual(["0", "10", "20", "30", "40"]);
  });

  it("leaves sentences, short runs and glued plain numbers alone", () => {
    expect(axisTokens("Updated 11/3 at 6 PM")).toBeUndefined();
    expect(axisTokens("Nov 3 Nov 4 Nov 5")).toBeUndefined(); // three: no run
    expect(axisTokens("10203040")).toBeUndefined();
    expect(axisTokens("Mon Tue Wed Thu Friday")).toBeUndefined();
    expect(axisTokens("3 of 10 items")).toBeUndefined();
  });
});

describe("splitAxisRun: cut at the ticks' spacing", () => {
  const line = (text: string) => ({
    text,
    conf: 0.99,
    box: [0, 0, 1, 1] as [number, number, number, number],
  });

  it("cuts evenly spaced labels, touching or not, each boxed to its ink", () => {
    const touching = splitAxisRun(line("11/1011/1111/1211/13"), blocks([40, 64, 88, 112]));
    expect(touching?.map((l) => l.text)).toEqual(["11/10", "11/11", "11/12", "11/13"]);
    const spaced = splitAxisRun(line("11/3 11/4 11/5 11/6"), blocks([40, 100, 160, 220]));
    expect(spaced?.map((l) => Math.round(l.box[0] * 400))).toEqual([40, 100, 160, 220]);
  });

  it("keeps a line whose pieces stand unevenly (no axis)", () => {
    expect(splitAxisRun(line("11/3 11/4 11/5 11/6"), blocks([40, 70, 180, 300]))).toBeUndefined();
  });
});

describe("axisSlots: y-axis labels beside grid lines", () => {
  it("predicts a column's missing values only where grid lines run", async () => {
    const image = await screen("chart-steps-week");
    const H = image.height;
    // Swift Charts' trailing labels as the detector finds them (0 missed), from the drawn label boxes.
    const { label } = await chartScreen(spec("chart-steps-week"), fonts);
    const found = label.text.filter((t) => ["5,000", "10,000", "15,000"].includes(t.text));
    const slots = axisSlots(
      found.map((t) => ({ text: t.text, conf: 1, box: t.box })),
      image,
    );
    expect(slots.map((s) => s.expect)).toEqual(["0"]);
    const zero = label.text.find((t) => t.text === "0");
    const slot = slots[0];
    expect(
      slot && zero && Math.abs((slot.box.y0 + slot.box.y1) / 2 - ((zero.box[1] + zero.box[3]) / 2) * H),
    ).toBeLessThan(10);
  });

  /** Right-aligned grey numbers on white, no grid, one every 200 px from y 200, and their line boxes. */
  async function plainColumn(texts: readonly string[]) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1170" height="1300"><rect width="1170" height="1300" fill="#fff"/>${texts
      .map((t, i) => fonts.shape(t, 1100, 400 + i * 200, { size: 33, anchor: "end", fill: "#8a8a8e" }).svg)
      .join("")}</svg>`;
    const image = await decodeRgb(await sharp(Buffer.from(svg)).png().toBuffer());
    const lines = texts.map((text, i) => ({
      text,
      conf: 1,
      box: [1000 / 1170, (370 + i * 200) / 1300, 1100 / 1170, (405 + i * 200) / 1300] as [
        number,
        number,
        number,
        number,
      ],
    }));
    return { image, lines };
  }

  it("without grid lines, extends only a column of three or more evenly stepping values", async () => {
    // 25,000 would stand above the image.
    const axis = await plainColumn(["15,000", "10,000", "5,000"]);
    expect(axisSlots(axis.lines, axis.image).map((s) => s.expect)).toEqual(["20,000", "0", "-5,000"]);
    const list = await plainColumn(["12", "7", "30"]);
    expect(axisSlots(list.lines, list.image)).toEqual([]);
    const two = await plainColumn(["10", "5"]);
    expect(axisSlots(two.lines, two.image)).toEqual([]);
  });

  it("takes a slot's reading only when it is the predicted value", () => {
    expect(axisReading(" 0 ", "0")).toBe("0");
    expect(axisReading("8", "0")).toBeUndefined();
    expect(axisReading("2,500")).toBe("2,500");
    expect(axisReading("O")).toBeUndefined();
  });
});

describe("chart axes read by the engine", () => {
  const engine = useRealOcrEngine();

  it("reads crowded dates, one line per tick, and the lone 0 and 5 of a y axis", async () => {
    const lines = await read(engine(), await screen("chart-temp-dates"));
    for (const t of ["11/3", "11/9", "11/10", "11/14", "0", "5", "10", "25"]) expect(lines, t).toContain(t);
    expect(lines.some((l) => l.includes("11/3 11/4"))).toBe(false);
  }, 60_000);

  it("reads a dark bar chart's spaced dates and a trailing axis found from one label", async () => {
    const lines = await read(engine(), await screen("chart-energy-dark"));
    for (const t of ["Nov 3", "Nov 10", "Nov 11", "0", "5", "10", "15"]) expect(lines, t).toContain(t);
  }, 60_000);

  it("reads the dates on a camera frame too", async () => {
    const frame = await filmScreenshot((await chartScreen(spec("chart-energy-dark"), fonts)).png, 11);
    const lines = (await engine().recognize(frame)).map((l) => l.text);
    for (const t of ["Nov 3", "Nov 4", "Nov 9"]) expect(lines, t).toContain(t);
  }, 120_000);
});
