import type { RgbImage } from "../shared/image.js";
import { applyDialPad } from "./dial-pad.js";
import { nameIconButtons } from "./icon-shapes.js";
import { applyKeyboard } from "./keyboard.js";
import { nameAppIcons } from "./named-icons.js";
import type { Candidate } from "./row.js";
import { centreX, centreY, contains } from "./row.js";
import { mergeStatusBar } from "./status-bar.js";
import { nameStockApps } from "./stock-apps.js";
import { findSwitches } from "./switches.js";

/**
 * What the rows mean: pure passes over the screen pixels and the merged OCR/detector rows, in order —
 * the status bar becomes one row; a keyboard, then a dial pad, is listed key by key; switches are found
 * in the pixels and named by their row's title; app icons take the name printed under them, or in the
 * dock a stock app's name by its design (`stock-apps.ts`); icon-only
 * buttons of a recognisable shape are named by it (`icon-shapes.ts`). Each pass
 * drops the raw rows it replaced, so one target is one row.
 */
export function applyScreenSemantics(screen: RgbImage, rows: readonly Candidate[]): Candidate[] {
  const aspect = screen.height / Math.max(1, screen.width);
  let out = mergeStatusBar(rows);
  out = applyKeyboard(out, aspect);
  out = applyDialPad(screen, out);
  out = applySwitches(screen, out);
  out = nameAppIcons(out, { aspect });
  out = nameStockApps(screen, out); // the dock: no names printed, stock designs named by look
  out = nameIconButtons(screen, out);
  return out;
}

/**
 * Switches as `[switch] "<title>" on|off` rows. The title is the text on the switch's row to its
 * left: of the text rows whose centre lies within the switch's height band, the tallest (a row's title
 * is set larger than its subtitle), the nearest in y on a tie. Icon rows on the switch are dropped.
 */
function applySwitches(screen: RgbImage, rows: readonly Candidate[]): Candidate[] {
  // A "switch" inside a much taller icon box is part of that icon's artwork (a white glyph on a green
  // app tile), not a control.
  const found = findSwitches(screen).filter(
    (s) =>
      !rows.some(
        (r) =>
          r.kind === "icon" &&
          r.box[3] - r.box[1] > 1.6 * (s.box[3] - s.box[1]) &&
          contains(r.box, centreX(s.box), centreY(s.box)),
      ),
  );
  if (found.length === 0) return [...rows];
  const switches = found.map((s): Candidate => {
    const h = s.box[3] - s.box[1];
    const cy = centreY(s.box);
    const title = rows
      .filter(
        (r) => r.kind === "text" && r.box[2] <= s.box[0] + 0.01 && Math.abs(centreY(r.box) - cy) < 0.75 * h,
      )
      .sort(
        (a, b) =>
          b.box[3] - b.box[1] - (a.box[3] - a.box[1]) ||
          Math.abs(centreY(a.box) - cy) - Math.abs(centreY(b.box) - cy),
      )[0];
    return {
      kind: "switch",
      label: title?.label ?? "",
      state: s.on ? "on" : "off",
      box: s.box,
      ...(title ? { labelBox: title.box } : {}),
      conf: 0.9,
    };
  });
  const kept = rows.filter(
    (r) => !(r.kind === "icon" && switches.some((s) => contains(s.box, centreX(r.box), centreY(r.box)))),
  );
  return [...kept, ...switches];
}
