import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { realCameraFrame } from "../../src/lab/real/camera.js";
import { iconsBetweenKeys } from "../../src/vision/keypad-gaps.js";
import { decodeRgb, stretchContrast, warpToScreen } from "../../src/vision/rectify.js";
import type { Candidate } from "../../src/vision/row.js";
import { applyScreenSemantics } from "../../src/vision/semantics.js";
import { REAL_SET_DIR, realLabel } from "./real-set.js";

const key = (label: string, box: Candidate["box"]): Candidate => ({ kind: "key", label, box, conf: 0.9 });
const icon = (box: Candidate["box"]): Candidate => ({ kind: "icon", label: "", box, conf: 0.4 });

/** A 3-key line of a passcode pad as `dial-pad.ts` lists it: boxes on the caps' glyphs, 0.33 apart. */
const padLine = (top: number, labels: [string, string, string]): Candidate[] =>
  labels.map((l, i) => key(l, [0.094 + 0.3295 * i, top, 0.246 + 0.3295 * i, top + 0.086]));

describe("iconsBetweenKeys", () => {
  it("finds an icon in the gutter between two neighbouring keys of a pad", () => {
    const keys = [...padLine(0.611, ["1", "2", "3"]), ...padLine(0.706, ["4", "5", "6"])];
    const gutter = icon([0.607, 0.625, 0.738, 0.7]);
    expect([...iconsBetweenKeys([...keys, gutter])]).toEqual([gutter]);
  });

  it("keeps an icon where the listing missed a key (a key-wide gap), and icons off the keys' lines", () => {
    const [one, , three] = padLine(0.611, ["1", "2", "3"]);
    const keys = [one, three, ...padLine(0.706, ["4", "5", "6"])].filter((k) => k !== undefined);
    const onMissingKey = icon([0.43, 0.62, 0.57, 0.69]);
    const aboveThePad = icon([0.45, 0.4, 0.55, 0.45]);
    expect(iconsBetweenKeys([...keys, onMissingKey, aboveThePad]).size).toBe(0);
  });

  it("keeps a keyboard's own rows: nothing lies between letter keys 0.1 apart but the next key", () => {
    const letters = [..."qwertyuiop"].map((c, i) => key(c, [0.005 + 0.1 * i, 0.7, 0.09 + 0.1 * i, 0.76]));
    const missingE = letters.filter((k) => k.label !== "e");
    const onE = icon([0.21, 0.705, 0.285, 0.755]);
    expect(iconsBetweenKeys([...missingE, onE]).size).toBe(0);
  });

  it("drops the gutter box of a passcode pad filmed by the camera, keeping every key", async () => {
    const name = "rb-bkpasscode-enter.png";
    const shot = await realCameraFrame(readFileSync(join(REAL_SET_DIR, "images", name)), { seed: 7 });
    const w = 585;
    const h = Math.round((w * shot.screenPx.height) / shot.screenPx.width);
    const screen = stretchContrast(warpToScreen(await decodeRgb(shot.frame), shot.screenToCamera, w, h));
    const label = realLabel(name);
    const rows: Candidate[] = label.text.map((t) => ({ kind: "text", label: t.text, box: t.box, conf: 0.9 }));
    // Where the detector put its boxes on this frame: the digit glyphs and, between "2" and "3", the gutter.
    const digits: [string, Candidate["box"]][] = [
      ["1", [0.094, 0.611, 0.246, 0.697]],
      ["2", [0.423, 0.611, 0.575, 0.697]],
      ["3", [0.769, 0.611, 0.92, 0.697]],
    ];
    const glyphs = digits.map(([, b]) => icon(b));
    const gutter = icon([0.607, 0.625, 0.738, 0.7]);
    const out = applyScreenSemantics(screen, [...rows, ...glyphs, gutter]);
    expect(out).not.toContain(gutter);
    // The pad is still listed key by key.
    const keys = out.filter((r) => r.kind === "key").map((r) => r.label);
    for (const d of ["1", "2", "3", "0"]) expect(keys).toContain(d);
  });
});
