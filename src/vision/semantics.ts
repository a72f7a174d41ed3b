import type { RgbImage } from "../shared/image.js";
import { inferGridApps } from "./app-grid.js";
import { iconsOnAppNames } from "./app-name-icons.js";
import { snapAppTiles } from "./app-tiles.js";
import { blankIconBoxes } from "./blank-boxes.js";
import { avatarsBesideBubbles } from "./bubble-avatars.js";
import { applyCalculator } from "./calculator.js";
import { chatDecorations } from "./chat-decor.js";
import { findCcPageTabs } from "./control-center-tabs.js";
import { textCutByOverlay } from "./cut-text.js";
import { applyDialPad } from "./dial-pad.js";
import { discSymbolReads } from "./disc-buttons.js";
import { splitFusedGlyphs } from "./fused-glyphs.js";
import { proposeGlyphs } from "./glyphs.js";
import { textUnderBottomBar } from "./home-indicator-text.js";
import { applyHomeGrid } from "./home-tiles.js";
import { trimIconsBesideText } from "./icon-beside-text.js";
import { applyIconMemory, type IconMemory } from "./icon-memory.js";
import { nameIconButtons } from "./icon-shapes.js";
import { splitInfoGlyphs } from "./info-glyph.js";
import { applyKeyboard } from "./keyboard.js";
import { nameStripKey } from "./keyboard-system-keys.js";
import { iconsBetweenKeys } from "./keypad-gaps.js";
import { lockScreenWallpaper } from "./lock-wallpaper.js";
import { menuGlyphReads } from "./menu-text.js";
import { nameAppIcons } from "./named-icons.js";
import { nestedTextRows } from "./nested-text.js";
import { splitOutlinedButtons } from "./outlined-buttons.js";
import { applyPhotoGrid } from "./photo-grid.js";
import { rowsInQrCodes } from "./qr-code.js";
import { applyQuickType } from "./quicktype.js";
import type { Candidate } from "./row.js";
import { centreX, centreY, contains } from "./row.js";
import { applySliders } from "./sliders.js";
import { smoothGrid } from "./smooth-grid.js";
import { dropSpuriousRows } from "./spurious.js";
import { mergeStatusBar } from "./status-bar.js";
import { applySteppers } from "./steppers.js";
import { nameStockApps } from "./stock-apps.js";
import { findSwitches } from "./switches.js";
import { findCcModuleToggles } from "./switches-cc-modules.js";
import { findControlCenterToggles } from "./switches-control-center.js";
import { switchTitle } from "./switches-title.js";
import { textAroundTabBar } from "./tab-bar-content.js";
import { splitTrailingGlyphs } from "./trailing-glyph.js";
/**
 * What the rows mean: pure passes over the screen pixels and the merged OCR/detector rows, in order —
 * the status bar becomes one row; a keyboard, then a dial pad, is listed key by key; switches are found
 * in the pixels and named by their row's title; sliders found in the pixels carry their knob's position; app icons take the name printed under them, or in the
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
  out = applyQuickType(screen, out); // the suggestion cells over the keys: a button each
  out = applyDialPad(screen, out);
  out = applyCalculator(out, aspect);
  out = applySwitches(screen, out);
  out = splitInfoGlyphs(out, aspect); // `Yesterday ①`: a cell's detail text and its info button
  out = splitTrailingGlyphs(screen, out); // `Yesterday ⓘ` read `Yesterday`: the circle found in the pixels
  out = trimIconsBesideText(screen, out); // one icon box over `50 min` and its star: cut to the star
  out = splitFusedGlyphs(screen, out); // `Wi-Fi (2) √`, `-ll nRF-7`: a check mark, signal bars in the text
  out = applyPhotoGrid(screen, out); // photo pickers: a row per thumbnail and per select circle
  const glyphs = proposeGlyphs(screen, out);
  const reads = discSymbolReads(glyphs, out); // `x` read off a ⊗: the disc's row replaces it
  out = [...out.filter((r) => !reads.has(r)), ...glyphs];
  const smooth = smoothGrid(screen); // one denoised cell grid for the slider and stepper finders
  out = applySliders(screen, out, smooth); // a thin track with a knob: one row with the knob's position
  out = nameStripKey(screen, out); // the keyboard-switch key under the keys, when only a glyph found it
  out = [...out, ...findCcPageTabs(screen, out)]; // Control Center's dim page tabs, by the bright one
  out = snapAppTiles(screen, out, aspect); // icon boxes hugging a tile's artwork grow to the tile
  out = inferGridApps(nameAppIcons(out, { aspect }), aspect); // then tiles the detector missed, from the grid
  if (memory) out = applyIconMemory(screen, out, memory, aspect);
  out = nameStockApps(screen, out); // the dock: no names printed, stock designs named by look
  out = applyHomeGrid(screen, out, aspect); // a home screen: tiles, widgets, dock slots from the grid
  out = nameIconButtons(screen, splitOutlinedButtons(screen, out, aspect)); // one wide box: equal bordered buttons
  out = applySteppers(screen, out, smooth); // a stepper's two halves: `[button] "minus"` / `"plus"`
  out = dropSpuriousRows(out, aspect, screen);
  const cut = textCutByOverlay(screen, out); // a line half hidden by a sheet's edge: a fragment
  const chat = chatDecorations(screen, out); // a conversation's emoji and avatars
  const page = textAroundTabBar(out); // the page's words seen around a floating tab bar
  const lock = lockScreenWallpaper(out, aspect); // shapes in a Lock Screen's wallpaper
  const blank = blankIconBoxes(screen, out); // wide boxes on a blank fill under camera noise
  const gutter = iconsBetweenKeys(out); // a keypad's gutter between two listed keys
  const avatar = avatarsBesideBubbles(screen, out); // a sender's photo at one bubble's foot
  const qr = rowsInQrCodes(screen, out); // a QR code's finder patterns and modules: one picture, no targets
  const late = [nestedTextRows(out), iconsOnAppNames(out), textUnderBottomBar(out, aspect)]; // f-spur's rules
  const drop = (r: Candidate): boolean =>
    cut.has(r) || chat.has(r) || page.has(r) || lock.has(r) || qr.has(r);
  const kept = out.filter(
    (r) => !drop(r) && !blank.has(r) && !gutter.has(r) && !avatar.has(r) && !late.some((s) => s.has(r)),
  );
  // Last: the row stays a text row through the passes above, so an icon box the detector put on the
  // glyph is still dropped as the text's duplicate.
  return menuGlyphReads(screen, kept); // ≡ read as the text `三`: a menu button
}

/**
 * Switches as `[switch] "<title>" on|off` rows (`on|off disabled` when drawn dimmed). The title is the text on the switch's row to its
 * left: of the text rows whose centre lies within the switch's height band, the tallest (a row's title
 * is set larger than its subtitle), the nearest in y on a tie; a title wrapped onto two lines (a line
 * of the same size, left-aligned with it, right above or below) is joined. With no text to the left, a
 * caption centred right under the switch names it (call screens' "Mute", "Speaker"). Control Center's
 * connectivity toggles are switches too, named by Apple's fixed layout (`switches-control-center.ts`).
 * Icon rows on a switch are dropped.
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
  const toggles = findControlCenterToggles(screen, rows);
  const modules = findCcModuleToggles(screen, rows, toggles); // 1×1 toggles: Orientation Lock…
  if (found.length === 0 && toggles.length === 0) return [...rows];
  const switches = found.map((s): Candidate => {
    const title = switchTitle(screen, s.box, rows);
    return {
      kind: "switch",
      label: title?.label ?? "",
      state: s.on ? "on" : "off",
      ...(s.disabled ? { disabled: true as const } : {}),
      box: s.box,
      ...(title ? { labelBox: title.box } : {}),
      conf: 0.9,
    };
  });
  for (const t of [...toggles, ...modules])
    switches.push({ kind: "switch", label: t.label, state: t.on ? "on" : "off", box: t.box, conf: 0.8 });
  // Control Center's module holds no text: a text row on it is a glyph misread (its small discs as "三").
  const module: Candidate["box"] | undefined = toggles.length
    ? [
        Math.min(...toggles.map((t) => t.box[0])),
        Math.min(...toggles.map((t) => t.box[1])),
        Math.max(...toggles.map((t) => t.box[2])),
        Math.max(...toggles.map((t) => t.box[3])),
      ]
    : undefined;
  const kept = rows.filter(
    (r) =>
      !(r.kind === "icon" && switches.some((s) => contains(s.box, centreX(r.box), centreY(r.box)))) &&
      !(r.kind === "text" && module && contains(module, centreX(r.box), centreY(r.box))),
  );
  return [...kept, ...switches];
}
