import type { RgbImage } from "../shared/image.js";
import { systemKeys } from "./keyboard-system-keys.js";
import type { Candidate } from "./row.js";
import { centreX, centreY } from "./row.js";

/**
 * The T9 keyboard's keys (for `dial-pad.ts`; `y` is its fourth row's centre, `pitchY` its row pitch) besides the digits and the bottom-row words: its delete key (an icon between
 * the space bar and `return`, as in Apple's 9-key pinyin layout) and the globe/emoji and mic keys under
 * the keyboard (`systemKeys`, with the keyboard spanning the screen's width in ten pitches).
 */
export function t9Extras(
  screen: RgbImage,
  rows: readonly Candidate[],
  y: number,
  pitchY: number,
  keys: readonly Candidate[],
): Candidate[] {
  const out: Candidate[] = [];
  const space = keys.find((k) => k.label === "space");
  const ret = keys.find((k) => k.label === "return");
  if (space && ret) {
    const del = rows.find(
      (r) =>
        r.kind === "icon" &&
        Math.abs(centreY(r.box) - y) < pitchY / 3 &&
        centreX(r.box) > space.box[2] &&
        centreX(r.box) < ret.box[0],
    );
    if (del) out.push({ kind: "key", label: "delete", box: del.box, conf: 0.8 });
  }
  const system = systemKeys(screen, rows, {
    left: 0,
    pitch: 0.1,
    top: y - 3 * pitchY,
    rowPitch: pitchY,
  });
  // Only the strip under the keyboard: the bottom row's own keys are the words above.
  out.push(...system.keys.filter((k) => centreY(k.box) > y + pitchY / 2));
  return out;
}
