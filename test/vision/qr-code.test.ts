import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { type QrScreenOptions, qrScreen, renderQrScreen } from "../../src/lab/synth/qr-screens.js";
import { FontBook } from "../../src/shared/fonts.js";
import { type RgbImage, toRgb } from "../../src/shared/image.js";
import { seededRandom } from "../../src/util/random.js";
import { findQrCodes, inQrCode, rowsInQrCodes } from "../../src/vision/qr-code.js";
import { finderRatio, findFinderPatterns } from "../../src/vision/qr-finders.js";
import { shrinkRgb } from "../../src/vision/rectify.js";
import type { Candidate } from "../../src/vision/row.js";
import { applyScreenSemantics } from "../../src/vision/semantics.js";
import { filmScreenshot } from "./ocr/filmed-real.js";
import { loadRealImage } from "./real-set.js";

const fonts = new FontBook();
/** The pipeline works on a 1170 px screenshot at 585 px (`workingWidth`). */
const WORKING = 585;

/** A QR screen as a PNG, the code's rectangle in screen fractions and the screen at working width. */
async function qr(
  opts: QrScreenOptions,
  seed = 1,
): Promise<{ png: Buffer; code: number[]; screen: RgbImage }> {
  const { scene, code } = qrScreen(seededRandom(seed), fonts, opts);
  const img = toRgb(await renderQrScreen(scene));
  const png = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
    .png()
    .toBuffer();
  const box = [code.x / 390, code.y / 844, (code.x + code.w) / 390, (code.y + code.h) / 844];
  return { png, code: box, screen: shrinkRgb(img, WORKING) };
}

/** Whether the one found code covers the drawn one's centre and corners' neighbourhood, in `screen`. */
function foundAt(screen: RgbImage, box: readonly number[]): boolean {
  const codes = findQrCodes(screen);
  if (codes.length !== 1 || !codes[0]) return false;
  const [l = 0, t = 0, r = 0, b = 0] = box;
  const at = (fx: number, fy: number): boolean =>
    inQrCode(codes[0] as never, fx * screen.width, fy * screen.height);
  const inset = 0.02 * (r - l);
  return (
    at((l + r) / 2, (t + b) / 2) &&
    at(l + inset, t + inset) &&
    at(r - inset, b - inset) &&
    !at(l - (r - l) * 0.3, t)
  );
}

/** A white 390 × 844 pt screen drawn from an SVG body, at working width. */
async function svgScreen(body: string, bg = "#ffffff"): Promise<RgbImage> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WORKING}" height="1266" viewBox="0 0 390 844"><rect width="390" height="844" fill="${bg}"/>${body}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: 3, data };
}

describe("finderRatio", () => {
  it("accepts 1:1:3:1:1 within the tolerance and rejects other runs", () => {
    expect(finderRatio([3, 3, 9, 3, 3])).toBe(true);
    expect(finderRatio([4, 2, 10, 3, 3])).toBe(true); // blur moves edges by a pixel
    expect(finderRatio([3, 3, 3, 3, 3])).toBe(false); // stripes
    expect(finderRatio([3, 9, 3, 3, 3])).toBe(false);
    expect(finderRatio([1, 1, 3, 1, 1])).toBe(false); // under 1.5 px a module
  });
});

describe("findQrCodes", () => {
  const CARDS = ["white", "dark", "inverted"] as const;
  it("finds one code, versions 1–10, 120–300 pt, light, dark and reversed, on screenshots", async () => {
    for (const card of CARDS)
      for (const [version, sizePt] of [
        [1, 120],
        [2, 300],
        [4, 180],
        [7, 240],
        [10, 120],
        [10, 300],
      ] as const) {
        const { screen, code } = await qr({ card, version, sizePt }, version + sizePt);
        expect(foundAt(screen, code), `${card} v${version} ${sizePt} pt`).toBe(true);
      }
  }, 120_000);

  it("finds a code turned by any angle (a printed code in a viewfinder)", async () => {
    for (const turnDeg of [45, -6, 22.5, 30, -15]) {
      const { screen, code } = await qr({ card: "white", version: 3, sizePt: 180, turnDeg }, 3);
      const codes = findQrCodes(screen);
      const [l = 0, t = 0, r = 0, b = 0] = code;
      expect(codes, `${turnDeg}°`).toHaveLength(1);
      const found = codes[0] as never;
      expect(
        inQrCode(found, ((l + r) / 2) * screen.width, ((t + b) / 2) * screen.height),
        `${turnDeg}°`,
      ).toBe(true);
    }
  }, 60_000);

  it("finds it on camera frames (blur, noise, resampling)", async () => {
    for (const [card, version, sizePt, seed] of [
      ["white", 3, 200, 7],
      ["dark", 10, 120, 17],
      ["inverted", 6, 260, 27],
      ["white", 1, 300, 37],
    ] as const) {
      const { png, code } = await qr({ card, version, sizePt, locale: "zh" }, seed);
      expect(foundAt(await filmScreenshot(png, seed), code), `${card} v${version} ${sizePt} pt`).toBe(true);
    }
  }, 120_000);

  it("finds none on real keyboards, dial pads, photo grids, home screens, calendars and lists", async () => {
    for (const name of [
      "rb-jsqmessages-keyboard.png",
      "re-jcdialpad-dial.png",
      "ra-tzimagepicker-grid-zh.png",
      "ra-cowabunga-home.png",
      "ra-tp-calendar-new-event.png",
      "rb-bkpasscode-demo-list.png",
      "rb-simplecalc-calculator.png",
    ]) {
      const screen = shrinkRgb(await loadRealImage(name), WORKING);
      expect(findQrCodes(screen), name).toHaveLength(0);
    }
  }, 60_000);

  it("finds none in a chessboard, a month grid, target icons or checked boxes in a right triangle", async () => {
    let chess = "";
    for (let r = 0; r < 8; r++)
      for (let c = 0; c < 8; c++)
        if ((r + c) % 2) chess += `<rect x="${35 + c * 40}" y="${200 + r * 40}" width="40" height="40"/>`;
    let month = "";
    for (let r = 0; r < 6; r++)
      for (let c = 0; c < 7; c++)
        month += `<rect x="${20 + c * 50}" y="${150 + r * 50}" width="44" height="44" rx="${r === 2 && c === 3 ? 22 : 0}" fill="${(r * 7 + c) % 9 === 0 ? "#007aff" : "#e5e5ea"}"/>`;
    // ◉ targets and "■ in □" selection boxes: 1:1:3:1:1 across a row, three of them at a right
    // angle, equal sides, but round (the targets) or with no timing pattern between them (the boxes).
    const target = (x: number, y: number): string =>
      `<circle cx="${x}" cy="${y}" r="12" fill="none" stroke="#000" stroke-width="3.4"/><circle cx="${x}" cy="${y}" r="5" fill="#000"/>`;
    const box = (x: number, y: number): string =>
      `<rect x="${x - 14}" y="${y - 14}" width="28" height="28" fill="none" stroke="#000" stroke-width="4"/><rect x="${x - 6}" y="${y - 6}" width="12" height="12"/>`;
    const grid = (draw: (x: number, y: number) => string): string => {
      let s = "";
      for (let r = 0; r < 4; r++) for (let c = 0; c < 3; c++) s += draw(80 + c * 110, 200 + r * 110);
      return s;
    };
    for (const [what, body] of [
      ["chessboard", chess],
      ["month grid", month],
      ["targets", grid(target)],
      ["checked boxes", grid(box)],
    ] as const)
      expect(findQrCodes(await svgScreen(body)), what).toHaveLength(0);
    // The boxes are finder-like (found as patterns): only the missing timing pattern rejects them.
    expect(findFinderPatterns(await svgScreen(grid(box))).length).toBeGreaterThanOrEqual(3);
  });
});

describe("rowsInQrCodes in the screen's semantics", () => {
  it("drops the three finder patterns' icon rows and keeps the caption and buttons", async () => {
    const { screen, code } = await qr({ card: "inverted", version: 2, sizePt: 240 }, 240 + 2);
    const [l = 0, t = 0, r = 0, b = 0] = code;
    const m = (r - l) / 25; // version 2: 25 modules
    const mh = (m * 390) / 844;
    const icon = (x: number, y: number): Candidate => ({
      kind: "icon",
      label: "",
      box: [x, y, x + 7 * m, y + 7 * mh],
      conf: 0.5,
    });
    const finders = [icon(l, t), icon(r - 7 * m, t), icon(l, b - 7 * mh)];
    const text = (label: string, box: [number, number, number, number]): Candidate => ({
      kind: "text",
      label,
      box,
      conf: 1,
    });
    const kept = [
      text("Scan to Pay", [0.359, 0.195, 0.643, 0.219]),
      text("Save Image", [0.144, 0.769, 0.382, 0.789]),
      text("Share", [0.677, 0.768, 0.797, 0.785]),
    ];
    expect(rowsInQrCodes(screen, [...finders, ...kept])).toEqual(new Set(finders));
    const out = applyScreenSemantics(screen, [...finders, ...kept]);
    const inCode = (row: Candidate): boolean => {
      const x = (row.box[0] + row.box[2]) / 2;
      const y = (row.box[1] + row.box[3]) / 2;
      return x > l && x < r && y > t && y < b;
    };
    expect(out.filter(inCode)).toEqual([]);
    expect(out.map((row) => row.label)).toEqual(
      expect.arrayContaining(["Scan to Pay", "Save Image", "Share"]),
    );
  }, 60_000);

  it("keeps a card row around the code and drops nothing on a screen without one", async () => {
    const { screen, code } = await qr({ card: "white", version: 3, sizePt: 200 }, 5);
    const [l = 0, t = 0, , b = 0] = code;
    const card: Candidate = { kind: "icon", label: "", box: [0.05, t - 0.1, 0.95, b + 0.1], conf: 0.4 };
    expect(rowsInQrCodes(screen, [card]).size).toBe(0);
    const blank = await svgScreen("");
    const row: Candidate = { kind: "icon", label: "", box: [l, t, l + 0.05, t + 0.05], conf: 0.5 };
    expect(rowsInQrCodes(blank, [row]).size).toBe(0);
  });
});
