import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { splitOutlinedButtons } from "../../src/vision/outlined-buttons.js";
import { decodeRgb } from "../../src/vision/rectify.js";
import type { Candidate } from "../../src/vision/row.js";
import { REAL_SET_DIR, realLabel } from "./real-set.js";

/**
 * Equal outlined buttons boxed by the detector as wide icons (`outlined-buttons.ts`), on real
 * screenshots of the development set (`datasets/real-iphone`): a FordPass widget's five actions, dark
 * and light. The wide boxes are the ones the detector gave (main a7c6e4c).
 */
async function load(id: string) {
  const label = realLabel(`${id}.json`);
  const image = await decodeRgb(readFileSync(join(REAL_SET_DIR, "images", label.image)));
  return { label, image, aspect: image.height / image.width };
}

const icon = (box: Candidate["box"]): Candidate => ({ kind: "icon", label: "", box, conf: 0.4 });

describe("equal outlined buttons", () => {
  for (const [id, wide] of [
    [
      "rd-fordpass-home-widget-dark",
      [icon([0.193, 0.433, 0.568, 0.469]), icon([0.663, 0.428, 0.923, 0.472])],
    ],
    [
      "rd-fordpass-home-widgets-light",
      [icon([0.147, 0.435, 0.476, 0.489]), icon([0.674, 0.4335, 0.93, 0.493])],
    ],
  ] as const) {
    it(`splits ${id}'s two wide boxes into its five buttons, each from its outline's top to bottom`, async () => {
      const { label, image, aspect } = await load(id);
      const buttons = label.elements.filter((e) => e.kind === "button" && e.box[1] > 0.4 && e.box[3] < 0.5);
      expect(buttons.length).toBe(5);
      const out = splitOutlinedButtons(image, wide, aspect);
      expect(out.length).toBe(5);
      for (const b of buttons) {
        // All four sides: the wide boxes reach past the buttons' bottoms into the caption below them.
        const hit = out.filter((r) => r.box.every((v, i) => Math.abs(v - (b.box[i] ?? 0)) < 0.01));
        expect(hit.length).toBe(1);
      }
    });
  }

  it("leaves wide boxes over text: a line, and two lines as tall as a button", async () => {
    const { image, aspect } = await load("rd-fordpass-home-widget-dark");
    const line = icon([0.249, 0.391, 0.761, 0.405]);
    expect(splitOutlinedButtons(image, [line], aspect)).toEqual([line]);
    const lines = icon([0.249, 0.372, 0.761, 0.405]); // "Location", "1234 Someplace Drive, Somewhere"
    expect(splitOutlinedButtons(image, [lines], aspect)).toEqual([lines]);
  });
});
