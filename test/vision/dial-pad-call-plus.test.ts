import { describe, expect, it } from "vitest";
import type { RealScreen } from "../../src/lab/real/labels.js";
import type { FracBox } from "../../src/shared/box.js";
import { applyDialPad } from "../../src/vision/dial-pad.js";
import type { Candidate } from "../../src/vision/row.js";
import { loadRealImage, realLabel } from "./real-set.js";

/**
 * The green call button placed lower than the Phone app's one pitch under `0`, and the `+` printed
 * under `0` that the text detector misses, on real softphone keypads (`datasets/real-iphone/`). The rows
 * fed to `applyDialPad` are what OCR and the detector give there, built from the hand label.
 */

const centre = (b: FracBox): [number, number] => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];
const inside = (b: FracBox, [x, y]: [number, number]): boolean =>
  x >= b[0] && x <= b[2] && y >= b[1] && y <= b[3];
const textRow = (label: string, box: FracBox): Candidate => ({ kind: "text", label, box, conf: 0.9 });

const LETTERS = ["ABC", "DEF", "GHI", "JKL", "MNO", "PQRS", "TUV", "WXYZ"];
const DIGITS = Array.from("0123456789");

/** Text rows for the labelled lines in `lines`, as OCR read them. */
const read = (label: RealScreen, lines: string[]): Candidate[] =>
  label.text.filter((t) => lines.includes(t.text)).map((t) => textRow(t.text, t.box));

const element = (label: RealScreen, char: string) => label.elements.find((e) => e.char === char);
const truthBox = (label: RealScreen, text: string): FracBox | undefined =>
  label.text.find((t) => t.text === text)?.box;

describe("applyDialPad: the call button and the + under 0", () => {
  it("finds the call disc 1.45 pitches under 0 (Twilio's SwiftUI keypad) as a key", async () => {
    const id = "rb-twilio-dial-view";
    const label = realLabel(`${id}.png`);
    const screen = await loadRealImage(`${id}.png`);
    const call = element(label, "call");
    expect(call).toBeDefined();
    if (!call) return;
    // The detector found the green disc as an icon; OCR read the digits and letters.
    const rows = [
      ...read(label, [...DIGITS, ...LETTERS]),
      { kind: "icon", label: "", box: call.box, conf: 0.5 } as Candidate,
    ];
    const out = applyDialPad(screen, rows);
    const key = out.find((r) => r.kind === "key" && r.label === "call");
    expect(key && inside(call.box, centre(key.box))).toBe(true);
    expect(out.some((r) => r.kind === "icon" && inside(call.box, centre(r.box)))).toBe(false);
  });

  it("lists no call key where the shape under the keypad is not green", async () => {
    const id = "rb-twilio-dial-view";
    const label = realLabel(`${id}.png`);
    const screen = await loadRealImage(`${id}.png`);
    // A shape the detector found under the keypad on the white page, left of the green disc.
    const star = element(label, "*");
    const call = element(label, "call");
    if (!star || !call) throw new Error("label");
    const out = applyDialPad(screen, [
      ...read(label, [...DIGITS, ...LETTERS]),
      { kind: "icon", label: "", box: [star.box[0], call.box[1], star.box[2], call.box[3]], conf: 0.5 },
    ]);
    expect(out.some((r) => r.label === "call")).toBe(false);
  });

  it.each(["rb-twilio-dial-view", "re-jcdialpad-dial", "re-jcdialpad-incall-keypad"])(
    "reads the + under 0 where the letters sit on the other keys (%s)",
    async (id) => {
      const label = realLabel(`${id}.png`);
      const screen = await loadRealImage(`${id}.png`);
      const plusBox = truthBox(label, "+");
      expect(plusBox).toBeDefined();
      const out = applyDialPad(screen, read(label, [...DIGITS, "*", "#", ...LETTERS]));
      const plus = out.filter((r) => r.kind === "text" && r.label === "+");
      expect(plus).toHaveLength(1);
      if (plusBox && plus[0]) expect(inside(plusBox, centre(plus[0].box))).toBe(true);
    },
  );

  it("reads no + without the letters, nor under a 0 that prints none", async () => {
    const twilio = realLabel("rb-twilio-dial-view.png");
    const screen = await loadRealImage("rb-twilio-dial-view.png");
    // Without letter lines there is no place predicted for it.
    expect(applyDialPad(screen, read(twilio, DIGITS)).some((r) => r.label === "+")).toBe(false);
    // Voximplant's DTMF pad prints letters but nothing under 0.
    const vox = realLabel("re-voximplant-dtmf-keypad.png");
    const voxScreen = await loadRealImage("re-voximplant-dtmf-keypad.png");
    const out = applyDialPad(voxScreen, read(vox, [...DIGITS, "*", "#", ...LETTERS]));
    expect(out.some((r) => r.label === "+")).toBe(false);
  });
});
