import { greenShare } from "./dial-pad-pixels.js";
import type { Candidate } from "./row.js";
import { boxWidth, centreX, centreY } from "./row.js";

/**
 * The green call button under a phone keypad, for `dial-pad.ts`. Apple's Phone app centres it under `0`
 * about one key pitch below the last row; apps place it beside another button on that row (JCDialPad's
 * logo button), or leave a wider gap: Twilio's SwiftUI quickstart draws it 1.45 pitches under `0`
 * (`datasets/real-iphone/rb-twilio-dial-view`: keypad rows at 0.363 … 0.704 of the height, pitch 0.114,
 * the call disc's centre at 0.868). So the places tried are the Phone app's, and every shape the detector
 * found of about a cap's size between half a pitch and two pitches under the `0` row; the one that is
 * filled with the system green (#34C759 / #30D158, `greenShare`) is the call button.
 */

export interface CallPlace {
  x: number;
  y: number;
}

/** A shape taken for the call disc is this share of the keypad's cap width, or within it. */
const SIZE = { min: 0.6, max: 1.5 };
/** How far under the keypad's last row (in row pitches) a detector shape may be the call button. */
const BELOW = { min: 0.5, max: 2 };

/**
 * Where the call button is, or undefined. `cols`/`lastRow`/`pitchY` are the keypad's grid (screen
 * fractions), `rx`/`ry` a cap's half width and height.
 */
export function findCallButton(
  screen: Parameters<typeof greenShare>[0],
  rows: readonly Candidate[],
  cols: readonly [number, number, number],
  lastRow: number,
  pitchY: number,
  rx: number,
  ry: number,
): CallPlace | undefined {
  const phoneY = lastRow + pitchY;
  const places: CallPlace[] = [{ x: cols[1], y: phoneY }];
  for (const r of rows) {
    if (r.kind !== "icon") continue;
    const x = centreX(r.box);
    const y = centreY(r.box);
    // On the Phone app's call row (beside another button): the row's y, as before.
    if (Math.abs(y - phoneY) < ry) places.push({ x, y: phoneY });
    const w = boxWidth(r.box);
    const below = (y - lastRow) / pitchY;
    if (below > BELOW.min && below < BELOW.max && w > SIZE.min * 2 * rx && w < SIZE.max * 2 * rx)
      places.push({ x, y });
  }
  return places.find((p) => p.y + ry < 1 && greenShare(screen, p.x, p.y, rx, ry) > 0.5);
}
