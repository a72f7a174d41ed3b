import type { RgbImage } from "../shared/image.js";
import { applyCalculator } from "./calculator.js";
import { applyDialPad } from "./dial-pad.js";
import { proposeGlyphs } from "./glyphs.js";
import { applyIconMemory, type IconMemory } from "./icon-memory.js";
import { nameIconButtons } from "./icon-shapes.js";
import { applyKeyboard } from "./keyboard.js";
import { nameAppIcons } from "./named-icons.js";
import { applyPhotoGrid } from "./photo-grid.js";
import type { Candidate } from "./row.js";
import { centreX, centreY, contains } from "./row.js";
import { dropSpuriousRows } from "./spurious.js";
import { mergeStatusBar } from "./status-bar.js";
import { nameStockApps } from "./stock-apps.js";
import { findSwitches } from "./switches.js";

/**
 * What the rows mean: pure passes over the screen pixels and the merged OCR/detector rows, in order —
 * the status bar becomes one row; a keyboard, then a dial pad, is listed key by key; switches are found
 * in the pixels and named by their row's title; app icons take the name printed under them, or in the
 * dock a stock app's name by its design (`stock-apps.ts`); icon-only
 * buttons of a recognisable shape are named by it (`icon-shapes.ts`). Each pass
 * drops the raw rows it replaced, so one target is one row. With the phone's `memory`, app icons seen
 * with their names teach it their looks, and unnamed app icons (the dock) take a remembered name.
 */
export function applyScreenSemantics(
  screen: RgbImage,
  rows: readonly Candidate[],
  memory?: IconMemory,
): Candidate[] {
  const aspect = screen.height / Math.max(1, screen.width);
  let out = mergeStatusBar(rows);
  out = applyKeyboard(out, aspect, screen);
  out = applyDialPad(screen, out);
  out = applyCalculator(out, aspect);
  out = applySwitches(screen, out);
  out = applyPhotoGrid(screen, out); // photo pickers: a row per thumbnail and per select circle
  out = [...out, ...proposeGlyphs(screen, out)];
  out = nameAppIcons(out, { aspect });
  if (memory) out = applyIconMemory(screen, out, memory, aspect);
  out = nameStockApps(screen, out); // the dock: no names printed, stock designs named by look
  out = nameIconButtons(screen, out);
  return dropSpuriousRows(out, aspect);
}

/**
 * Switches as `[switch] "<title>" on|off` rows. The title is the text on the switch's row to its
 * left: of the text rows whose centre lies within the switch's height band, the tallest (a row's title
 * is set larger than its subtitle), the nearest in y on a tie; a title wrapped onto two lines (a line
 * of the same size, left-aligned with it, right above or below) is joined. With no text to the left, a
 * caption centred right under the switch names it (call screens' "Mute", "Speaker"). Icon rows on the
 * switch are dropped.
 */
function applySwitches(screen: RgbImage, rows: readonly Candidate[]): Candidate[] {
  // A "switch" inside a much taller icon box is part of that icon's artwork (a white glyph on a green
  // app tile), not a control.
  const found = findSwitches(screen).filter(
    (s) =>
      !rows.some(
        (r) =>
          r.kind === "icon" &&
          r.box[3] - r.box[1] > 1.8 * (s.box[3] - s.box[1]) &&
          contains(r.box, centreX(s.box), centreY(s.box)),
      ),
  );
  if (found.length === 0) return [...rows];
  const switches = found.map((s): Candidate => {
    const title = switchTitle(s.box, rows);
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

const tall = (r: Candidate): number => r.box[3] - r.box[1];

/** The title of the switch at `box` (see `applySwitches`), or undefined. */
function switchTitle(
  box: Candidate["box"],
  rows: readonly Candidate[],
): Pick<Candidate, "label" | "box"> | undefined {
  const h = box[3] - box[1];
  const cy = centreY(box);
  const texts = rows.filter((r) => r.kind === "text");
  const left = texts.filter((r) => r.box[2] <= box[0] + 0.01 && Math.abs(centreY(r.box) - cy) < 0.75 * h);
  const title = [...left].sort(
    (a, b) => tall(b) - tall(a) || Math.abs(centreY(a.box) - cy) - Math.abs(centreY(b.box) - cy),
  )[0];
  if (title) {
    const other = left.find(
      (r) =>
        r !== title &&
        Math.abs(r.box[0] - title.box[0]) < 0.02 &&
        Math.abs(tall(r) - tall(title)) < 0.25 * tall(title) &&
        Math.min(Math.abs(r.box[1] - title.box[3]), Math.abs(title.box[1] - r.box[3])) < 0.6 * tall(title),
    );
    if (!other) return title;
    const [first, second] = other.box[1] < title.box[1] ? [other, title] : [title, other];
    return {
      label: `${first.label} ${second.label}`,
      box: [
        Math.min(first.box[0], second.box[0]),
        first.box[1],
        Math.max(first.box[2], second.box[2]),
        second.box[3],
      ],
    };
  }
  return texts.find(
    (r) =>
      r.box[1] >= box[3] - 0.1 * h &&
      r.box[1] < box[3] + 0.6 * h &&
      contains(box, centreX(r.box), centreY(box)),
  );
}
