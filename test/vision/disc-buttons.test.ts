import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { realCameraFrame } from "../../src/lab/real/camera.js";
import type { RgbImage } from "../../src/shared/image.js";
import { discSymbolReads, proposeDiscButtons } from "../../src/vision/disc-buttons.js";
import { decodeRgb, stretchContrast, warpToScreen } from "../../src/vision/rectify.js";
import type { Candidate } from "../../src/vision/row.js";
import { loadRealImage, REAL_SET_DIR, realLabel } from "./real-set.js";

const elements = (name: string) => realLabel(name).elements;
const centreIn = (b: readonly number[], r: { box: readonly number[] }): boolean => {
  const x = ((r.box[0] as number) + (r.box[2] as number)) / 2;
  const y = ((r.box[1] as number) + (r.box[3] as number)) / 2;
  return x >= (b[0] as number) && x <= (b[2] as number) && y >= (b[1] as number) && y <= (b[3] as number);
};

/** Real screens and the labels of the filled round buttons on them (22 pt clear buttons to 72 pt call buttons). */
const CASES: [string, RegExp][] = [
  ["rb-callkeep-incoming.png", /^(Accepter|Refuser)$/], // 72 pt decline/accept on a blurred photo
  ["rb-autoglm-shortcuts-en.png", /^delete$/], // 22 pt grey ⊗ in cards
  ["rd-zkytech-scriptable-list.jpg", /^more$/], // 27 pt ⋯ discs on coloured tiles
  ["rb-universekb-t9-qwerty.png", /^done$/], // 44 pt yellow ✓ platter
];

describe("proposeDiscButtons", () => {
  for (const [name, which] of CASES)
    it(`finds the filled round buttons of ${name}`, async () => {
      const rows = proposeDiscButtons(await loadRealImage(name), []);
      const truth = elements(name).filter((e) => which.test(e.label));
      expect(truth.length).toBeGreaterThan(0);
      for (const e of truth)
        expect(
          rows.filter((r) => centreIn(e.box, r)),
          e.label,
        ).toHaveLength(1);
    });

  it("leaves discs a row already covers, and plain discs with no symbol", async () => {
    const screen = await loadRealImage("rb-callkeep-incoming.png");
    const decline = elements("rb-callkeep-incoming.png").find((e) => e.label === "Refuser");
    if (!decline) throw new Error("label missing");
    const rows = proposeDiscButtons(screen, [{ kind: "icon", label: "", box: decline.box, conf: 0.5 }]);
    expect(rows.filter((r) => centreIn(decline.box, r))).toEqual([]);
    // A flat red disc with nothing inside (a badge, a knob) is no button.
    const w = 390;
    const h = 844;
    const data = Buffer.alloc(w * h * 3, 255);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++)
        if ((x - 200) ** 2 + (y - 400) ** 2 <= 30 ** 2) data.set([255, 59, 48], (y * w + x) * 3);
    const plain: RgbImage = { width: w, height: h, channels: 3, data };
    expect(proposeDiscButtons(plain, [])).toEqual([]);
    // The same disc with a white ✕ inside is one.
    for (let d = -12; d <= 12; d++)
      for (let t = -1; t <= 1; t++) {
        data.set([255, 255, 255], ((400 + d) * w + 200 + d + t) * 3);
        data.set([255, 255, 255], ((400 + d) * w + 200 - d + t) * 3);
      }
    expect(proposeDiscButtons(plain, [])).toHaveLength(1);
  });

  // On a camera frame the optics blur a disc's edge into a ramp of small steps: growing a region from
  // neighbour to neighbour alone ran from the disc out over the whole card. (Seeds as the bench films them.)
  const FILMED: [string, RegExp, number][] = [
    ["rd-bark-shortcuts-action-detail-zh.png", /^delete$/, 107], // 22 pt grey ⊗ on a light card
    ["rd-zkytech-scriptable-list.jpg", /^more$/, 120], // ⋯ discs on gradient tiles
  ];
  for (const [name, which, seed] of FILMED)
    it(`finds the filled round buttons of ${name} on a camera frame`, async () => {
      const shot = await realCameraFrame(readFileSync(join(REAL_SET_DIR, "images", name)), { seed });
      const w = 585;
      const h = Math.round((w * shot.screenPx.height) / shot.screenPx.width);
      const screen = stretchContrast(warpToScreen(await decodeRgb(shot.frame), shot.screenToCamera, w, h));
      const rows = proposeDiscButtons(screen, []);
      const truth = elements(name).filter((e) => which.test(e.label));
      expect(truth.length).toBeGreaterThan(0);
      for (const e of truth)
        expect(
          rows.filter((r) => centreIn(e.box, r)),
          e.label,
        ).toHaveLength(1);
    });
});

describe("disc buttons inside a card's box", () => {
  // The detector boxes each whole card of rb-autoglm-shortcuts-zh as one icon (dropped later as a wide
  // box); that box must not claim the 22 pt ⊗ at the card's end (main missed two of the three).
  it("finds the ⊗ of every card when the detector boxed the cards", async () => {
    const name = "rb-autoglm-shortcuts-zh.png";
    const cards: Candidate[] = [
      { kind: "icon", label: "", box: [0.081, 0.134, 0.999, 0.195], conf: 0.4 },
      { kind: "icon", label: "", box: [0.0, 0.293, 1.0, 0.351], conf: 0.4 },
    ];
    const rows = proposeDiscButtons(await loadRealImage(name), cards);
    const truth = elements(name).filter((e) => e.label === "delete");
    expect(truth).toHaveLength(3);
    for (const e of truth) expect(rows.filter((r) => centreIn(e.box, r))).toHaveLength(1);
  });

  it("lets a button-sized box keep its disc, and only a symbol's read give way", () => {
    const w = 390;
    const h = 844;
    const data = Buffer.alloc(w * h * 3, 255);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++)
        if ((x - 200) ** 2 + (y - 400) ** 2 <= 11 ** 2) data.set([142, 142, 147], (y * w + x) * 3);
    for (let d = -5; d <= 5; d++) {
      data.set([255, 255, 255], ((400 + d) * w + 200 + d) * 3);
      data.set([255, 255, 255], ((400 + d) * w + 200 - d) * 3);
    }
    const screen: RgbImage = { width: w, height: h, channels: 3, data };
    const at = (l: number, t: number, r: number, b: number): Candidate["box"] => [l / w, t / h, r / w, b / h];
    expect(proposeDiscButtons(screen, [])).toHaveLength(1);
    // A 48 pt button box around it (a ⓘ's hit target) is that button: no second row.
    const own: Candidate = { kind: "icon", label: "", box: at(176, 376, 224, 424), conf: 0.5 };
    expect(proposeDiscButtons(screen, [own])).toEqual([]);
    // A monogram read as a letter is text, not the symbol's read: it keeps the disc.
    const letter: Candidate = { kind: "text", label: "J", box: at(194, 393, 206, 407), conf: 0.9 };
    expect(proposeDiscButtons(screen, [letter])).toEqual([]);
    // `x` read off the ⊗ gives way, and the disc's row replaces it.
    const read: Candidate = { kind: "text", label: "x", box: at(194, 393, 206, 407), conf: 0.9 };
    const discs = proposeDiscButtons(screen, [read]);
    expect(discs).toHaveLength(1);
    expect([...discSymbolReads(discs, [read, letter])]).toEqual([read]);
    // A full-width card box around it claims nothing.
    const card: Candidate = { kind: "icon", label: "", box: at(10, 370, 380, 430), conf: 0.4 };
    expect(proposeDiscButtons(screen, [card])).toHaveLength(1);
  });
});
