import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { HARSH_OPTICS } from "../../src/lab/eval/harsh-optics.js";
import { phoneForScreenshot, realCameraFrame } from "../../src/lab/real/camera.js";
import { loadRealSet } from "../../src/lab/real/dataset.js";
import { applyHomography, type Mat3 } from "../../src/shared/homography.js";
import { IPHONE_61 } from "../../src/shared/phone-model.js";
import { decodeRgb, warpToScreen } from "../../src/vision/rectify.js";

/** A 750×1334 (16:9) "screenshot": white with a black bar across its top quarter and a red square low left. */
async function testScreenshot(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="750" height="1334">
    <rect width="750" height="1334" fill="#fff"/><rect y="100" width="750" height="230" fill="#000"/>
    <rect x="60" y="900" width="260" height="260" fill="#d00"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe("realCameraFrame", () => {
  it("films the screenshot so the homography maps screen fractions back onto it", async () => {
    const png = await testScreenshot();
    const shot = await realCameraFrame(png);
    expect(shot.screenPx).toEqual({ width: 750, height: 1334 });
    const w = 300;
    const h = Math.round((w * 1334) / 750);
    const rectified = warpToScreen(await decodeRgb(shot.frame), shot.screenToCamera, w, h);
    const px = (fx: number, fy: number): number[] => {
      const at = (Math.floor(fy * h) * w + Math.floor(fx * w)) * 3;
      return [...rectified.data.subarray(at, at + 3)];
    };
    // Down the middle column: where the black bar starts and ends, in screen fractions.
    const grey = Array.from({ length: h }, (_, y) => {
      const [r = 0, g = 0, b = 0] = px(0.5, (y + 0.5) / h);
      return (r + g + b) / 3;
    });
    const mid = (Math.max(...grey) + Math.min(...grey)) / 2;
    const top = grey.findIndex((v) => v < mid) / h;
    const bottom = grey.findIndex((v, y) => y > top * h && v >= mid) / h;
    expect(top).toBeCloseTo(100 / 1334, 2);
    expect(bottom).toBeCloseTo(330 / 1334, 2);
    // The red square stays red where a label would put it, and nowhere else on its row.
    const [r = 0, g = 0, b = 0] = px(0.25, 0.77);
    expect(r).toBeGreaterThan(g + 60);
    expect(r).toBeGreaterThan(b + 60);
    const [r2 = 0, g2 = 0] = px(0.6, 0.77);
    expect(Math.abs(r2 - g2)).toBeLessThan(30);
    // A home-button iPhone's display has square corners: the screen's white reaches them.
    for (const [fx, fy] of [
      [0.015, 0.99],
      [0.985, 0.99],
    ] as const)
      expect(Math.min(...px(fx, fy)), `corner ${fx},${fy}`).toBeGreaterThan(120);
  }, 60_000);

  it("harsh optics put the screen on fewer sensor pixels", async () => {
    const png = await testScreenshot();
    const span = (m: Mat3): number => {
      const a = applyHomography(m, 0, 0.5);
      const b = applyHomography(m, 1, 0.5);
      return Math.hypot(b.x - a.x, b.y - a.y);
    };
    const normal = await realCameraFrame(png);
    const harsh = await realCameraFrame(png, { harsh: true });
    // Glass 182 mm from the lens normally, 252 mm under harsh optics: ~0.72 of the pixels across.
    const ratio = span(harsh.screenToCamera) / span(normal.screenToCamera);
    const expected = (190 - 7.8) / (190 + HARSH_OPTICS.extraHeightMm - 7.8);
    expect(ratio).toBeCloseTo(expected, 2);
  }, 60_000);

  it("a screenshot of another aspect lies on a glass of that aspect, as wide as the 6.1-inch phone's", () => {
    const g = phoneForScreenshot(750, 1334);
    expect(g.glassMm.width).toBe(IPHONE_61.glassMm.width);
    expect(g.glassMm.height / g.glassMm.width).toBeCloseTo(1334 / 750, 6);
    expect(g.body.heightMm - g.glassMm.height).toBeCloseTo(
      IPHONE_61.body.heightMm - IPHONE_61.glassMm.height,
      6,
    );
    expect(phoneForScreenshot(1170, 2532).glassMm.height).toBeCloseTo(IPHONE_61.glassMm.height, 6);
  });

  it("rounds the glass's corners for Face ID screens only", () => {
    expect(phoneForScreenshot(750, 1334).screenCornerRadiusMm).toBe(0);
    expect(phoneForScreenshot(640, 960).screenCornerRadiusMm).toBe(0);
    expect(phoneForScreenshot(1170, 2532).screenCornerRadiusMm).toBe(IPHONE_61.screenCornerRadiusMm);
    expect(phoneForScreenshot(1125, 2436).screenCornerRadiusMm).toBe(IPHONE_61.screenCornerRadiusMm);
  });
});

describe("loadRealSet", () => {
  it("reads every directory, skipping drafts, schema failures, missing images and repeated ids", () => {
    const root = mkdtempSync(join(tmpdir(), "piclaw-realset-"));
    const label = (image: string, notes = "") => ({
      image,
      width: 10,
      height: 20,
      lang: "en",
      theme: "light",
      screen: "app",
      statusBar: null,
      text: [],
      elements: [],
      notes,
    });
    const make = (name: string, files: Record<string, unknown>, images: string[]): string => {
      const dir = join(root, name);
      mkdirSync(join(dir, "labels"), { recursive: true });
      mkdirSync(join(dir, "images"), { recursive: true });
      for (const [f, doc] of Object.entries(files))
        writeFileSync(join(dir, "labels", f), typeof doc === "string" ? doc : JSON.stringify(doc));
      for (const i of images) writeFileSync(join(dir, "images", i), "x");
      return dir;
    };
    const a = make(
      "a",
      {
        "a1.json": label("a1.png"),
        "a2.json": label("a2.png", "DRAFT from prelabel: correct every field by eye"),
        "a3.json": { ...label("a3.png"), lang: "fr" },
        "a4.json": label("a4.png"),
        "a5.json": "{",
      },
      ["a1.png", "a2.png", "a3.png"],
    );
    const b = make("b", { "a1.json": label("a1.png"), "b1.json": label("b1.png") }, ["a1.png", "b1.png"]);
    const set = loadRealSet([a, b, join(root, "none")]);
    expect(set.samples.map((s) => s.label.image)).toEqual(["a1.png", "b1.png"]);
    expect(set.samples[0]?.imagePath).toBe(join(a, "images", "a1.png"));
    const reasons = set.skipped.map((s) => s.reason);
    expect(reasons).toContain("still a draft");
    expect(reasons.some((r) => r.startsWith("schema: lang"))).toBe(true);
    expect(reasons).toContain("image a4.png missing");
    expect(reasons.some((r) => r.startsWith("not JSON"))).toBe(true);
    expect(reasons).toContain("image a1.png already read from an earlier directory");
    expect(reasons).toContain("no labels directory");
  });
});
