import { describe, expect, it } from "vitest";
import { blankIconBoxes } from "../../src/vision/blank-boxes.js";
import type { Candidate } from "../../src/vision/row.js";
import { applyScreenSemantics } from "../../src/vision/semantics.js";
import { filmedRealScreen } from "./ocr/filmed-real.js";
import { loadRealImage, realLabel } from "./real-set.js";

/**
 * Wide icon boxes on blank fills of real screens filmed by the simulated camera and rectified as the
 * pipeline does (585 px wide): the sensor's noise spreads a flat fill past the screenshot's blank test,
 * the 3 × 3 patch mean does not. The boxes are where the detector put them on these frames.
 */
const icon = (box: Candidate["box"]): Candidate => ({ kind: "icon", label: "", box, conf: 0.35 });
const textRows = (name: string): Candidate[] =>
  realLabel(name).text.map((t): Candidate => ({ kind: "text", label: t.text, box: t.box, conf: 0.9 }));

const CASES = [
  {
    // The blank band above the passcode app's first field; the field and the Go key hold ink.
    name: "rb-ios-passcode-keyboard.png",
    blank: [0.214, 0.133, 0.75, 0.185],
    inked: [
      [0.04, 0.19, 0.96, 0.28],
      [0.759, 0.926, 0.991, 0.995],
    ],
  },
  {
    // A Settings page's empty group header (zh, 16:9); the switch cell below it holds ink.
    name: "ra-atlantis-settings-zh.png",
    blank: [0.064, 0.117, 0.909, 0.168],
    inked: [[0.04, 0.18, 0.96, 0.25]],
  },
  {
    // The smooth wallpaper gradient over an incoming call's name; Remind Me's alarm glyph is ink.
    name: "rb-twilio-callkit-incoming.jpg",
    blank: [0.004, 0.049, 0.154, 0.101],
    inked: [[0.164, 0.627, 0.341, 0.699]],
  },
] as const;

describe("blankIconBoxes on camera frames", () => {
  for (const c of CASES)
    it(`drops the blank box and keeps boxes with ink on ${c.name}`, async () => {
      for (const seed of [7, 31]) {
        const screen = await filmedRealScreen(c.name, seed);
        const blank = icon([...c.blank]);
        const inked = c.inked.map((b) => icon([...b]));
        const found = blankIconBoxes(screen, [blank, ...inked]);
        expect(found.has(blank), `seed ${seed}`).toBe(true);
        for (const r of inked) expect(found.has(r), `seed ${seed} ${r.box}`).toBe(false);
      }
    });

  it("takes the blank box out of the listing (semantics), keeping the screen's text", async () => {
    const c = CASES[0];
    const screen = await filmedRealScreen(c.name, 7);
    const blank = icon([...c.blank]);
    const out = applyScreenSemantics(screen, [...textRows(c.name), blank]);
    expect(out).not.toContain(blank);
    expect(out.map((r) => r.label)).toContain("Secret Code");
  });

  it("drops a glyph-sized box on Control Center's blurred backdrop, keeps a disabled chevron", async () => {
    // Control Center (iOS 18): an empty patch of the backdrop between its + and power buttons.
    const cc = "rd-bluelink-control-center.jpg";
    const backdrop = icon([0.784, 0.023, 0.845, 0.04]);
    const power = icon([0.865, 0.035, 0.928, 0.052]);
    for (const screen of [await loadRealImage(cc), await filmedRealScreen(cc, 7)]) {
      const found = blankIconBoxes(screen, [backdrop, power]);
      expect(found.has(backdrop)).toBe(true);
      expect(found.has(power)).toBe(false);
    }
    // Safari's toolbar (ntfy's page): the greyed-out forward chevron, the faintest glyph in the set.
    const forward = icon([0.224, 0.909, 0.382, 0.957]);
    expect(blankIconBoxes(await loadRealImage("ra-ntfy-safari-page.jpg"), [forward]).size).toBe(0);
  });

  it("drops the same blank band on the screenshot", async () => {
    const c = CASES[0];
    const blank = icon([...c.blank]);
    expect(blankIconBoxes(await loadRealImage(c.name), [blank]).has(blank)).toBe(true);
  });
});
