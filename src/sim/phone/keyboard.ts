import type { Ctx } from "./context.js";
import type { Scene } from "./scene.js";
import type { KeyboardState } from "./state.js";
import { path, rect } from "./svg.js";

/**
 * The iOS on-screen keyboard (English US layout, portrait, Face ID iPhone), drawn when a text field
 * has focus and driven by taps on its keys like the real one.
 *
 * Where the numbers come from: Apple publishes no drawing of the keyboard. The frame is the one UIKit
 * reports in `UIKeyboardFrameEndUserInfoKey` on 390×844 pt iPhones (12–14): 336 pt high with the
 * QuickType bar (45 pt), i.e. 291 pt of keys plus the emoji/dictation strip and home indicator. Key
 * proportions are those measured on iOS 16–17 screenshots and documented in `src/vision/keyboard.ts`
 * (the listing's recogniser, which must read this keyboard as it reads a real one): 10 keys per top
 * row at pitch p = width / 10 with 6 pt gaps, 42 pt tall caps on a 54 pt row pitch, row 2 offset by
 * p/2, shift 0.1–1.2 p and delete 8.8–9.9 p on row 3, bottom row `123` 0.1–2.3 p, space 2.45–7.55 p,
 * return 7.7–9.9 p; the 123 layer's third row has five punctuation keys 1.4 p wide. Colours are
 * approximations of iOS 17's light and dark keyboards (system keys darker than letter keys), not
 * sampled from Apple artwork. Both locales show the English (US) keyboard: no pinyin input.
 */

export const KEYBOARD = {
  /** Frame height with the QuickType bar (pt). */
  height: 336,
  quickTypeH: 45,
  /** Gap between the QuickType bar and the first row of caps (pt). */
  topPad: 10,
  capH: 42,
  rowPitch: 54,
  gap: 6,
} as const;

const LETTER_ROWS = ["qwertyuiop", "asdfghjkl", "zxcvbnm"] as const;
const NUMBER_ROWS = ["1234567890", '-/:;()$&@"'] as const;
const SYMBOL_ROWS = ["[]{}#%^*+=", "_\\|~<>€£¥•"] as const;
const PUNCTUATION = [".", ",", "?", "!", "'"] as const;
const ROW_OFFSET = [0.5, 1, 2] as const;

/** Two taps on shift closer than this lock capitals (UIKit's double-tap interval). */
const CAPS_LOCK_MS = 350;

/** The field the keyboard types into. */
export interface KeyboardTarget {
  text: string;
  set(text: string): void;
  /** The return key (Messages: a new line is not supported by the one-line field, so it does nothing). */
  onReturn?: () => void;
}

const COLORS = {
  light: { bg: "#d1d3d9", key: "#ffffff", system: "#abb0bc", ink: "#000000", shadow: "#898a8d" },
  dark: { bg: "#2c2c2e", key: "#6b6b6b", system: "#464646", ink: "#ffffff", shadow: "#000000" },
} as const;

export function keyboardTop(ctx: Ctx): number {
  return ctx.H - KEYBOARD.height;
}

/** Capitals are shown when shift is on once, locked, or automatic at the start of a sentence. */
export function upperCase(kb: KeyboardState, text: string): boolean {
  if (kb.shift === "once" || kb.shift === "lock") return true;
  if (kb.shift === "off") return false;
  return text.trim() === "" || /[.!?]\s+$/.test(text);
}

/** Draw the keyboard at the bottom of the screen and wire its keys to `target`. */
export function buildKeyboard(scene: Scene, ctx: Ctx, target: KeyboardTarget): void {
  const kb = ctx.state.keyboard;
  const { W } = ctx;
  const c = ctx.theme.dark ? COLORS.dark : COLORS.light;
  const top = keyboardTop(ctx);
  scene.add(
    {
      id: "keyboard",
      kind: "control",
      label: "",
      rect: { x: 0, y: top, w: W, h: ctx.H - top },
      hidden: true,
    },
    rect({ x: 0, y: top, w: W, h: ctx.H - top }, c.bg),
  );
  const p = W / 10;
  const rowTop = (row: number) => top + KEYBOARD.quickTypeH + KEYBOARD.topPad + row * KEYBOARD.rowPitch;
  const upper = upperCase(kb, target.text);
  const type = (ch: string) => {
    target.set(target.text + ch);
    if (kb.shift === "once") kb.shift = "off";
    if (kb.shift === "off" && kb.layer === "letters") kb.shift = "auto";
    // iOS returns to letters after a space or apostrophe typed on the 123 layer.
    if (kb.layer !== "letters" && (ch === " " || ch === "'")) kb.layer = "letters";
  };
  const key = (
    id: string,
    label: string,
    u0: number,
    u1: number,
    row: number,
    onTap: () => void,
    opts: { system?: boolean; glyph?: string; size?: number } = {},
  ) => {
    const x = u0 * p + (u0 === 0 ? KEYBOARD.gap / 2 : 0);
    const r = { x, y: rowTop(row), w: u1 * p - x - (u1 === 10 ? KEYBOARD.gap / 2 : 0), h: KEYBOARD.capH };
    const fill = opts.system ? c.system : c.key;
    const face =
      opts.glyph ??
      scene.shape(label, r.x + r.w / 2, r.y + r.h / 2 + (opts.size ?? 22) * 0.36, {
        size: opts.size ?? 22,
        fill: c.ink,
        anchor: "middle",
      }).svg;
    scene.add(
      { id: `key.${id}`, kind: "control", label, rect: r, onTap },
      rect({ ...r, y: r.y + 1 }, c.shadow, 5) + rect(r, fill, 5) + face,
    );
  };
  const charKey = (ch: string, u: number, row: number) => {
    const shown = kb.layer === "letters" && upper ? ch.toUpperCase() : ch;
    key(shown, shown, u - 0.5 + 0.08, u + 0.5 - 0.08, row, () => type(shown), {
      size: kb.layer === "letters" ? 23 : 21,
    });
  };
  const rows =
    kb.layer === "letters" ? LETTER_ROWS.slice(0, 2) : kb.layer === "numbers" ? NUMBER_ROWS : SYMBOL_ROWS;
  rows.forEach((chars, row) => {
    for (const [i, ch] of Array.from(chars).entries()) charKey(ch, i + (ROW_OFFSET[row] ?? 0.5), row);
  });
  if (kb.layer === "letters") {
    const shiftOn = kb.shift === "once" || kb.shift === "lock" || upper;
    key("shift", "shift", 0.1, 1.2, 2, () => shiftTap(kb, ctx.nowMs, upper), {
      system: !shiftOn,
      glyph: shiftGlyph(0.65 * p, rowTop(2) + KEYBOARD.capH / 2, c.ink, shiftOn, kb.shift === "lock"),
    });
    for (const [i, ch] of Array.from(LETTER_ROWS[2]).entries()) charKey(ch, i + 2, 2);
  } else {
    const other = kb.layer === "numbers" ? "#+=" : "123";
    key(
      other,
      other,
      0.1,
      1.2,
      2,
      () => {
        kb.layer = kb.layer === "numbers" ? "symbols" : "numbers";
      },
      { system: true, size: 15 },
    );
    PUNCTUATION.forEach((ch, i) => {
      key(ch, ch, 1.5 + i * 1.4 + 0.08, 1.5 + (i + 1) * 1.4 - 0.08, 2, () => type(ch), { size: 21 });
    });
  }
  key("delete", "delete", 8.8, 9.9, 2, () => target.set(Array.from(target.text).slice(0, -1).join("")), {
    system: true,
    glyph: deleteGlyph(9.35 * p, rowTop(2) + KEYBOARD.capH / 2, c.ink),
  });
  const switchTo = kb.layer === "letters" ? "123" : "ABC";
  key(
    switchTo,
    switchTo,
    0.1,
    2.3,
    3,
    () => {
      kb.layer = kb.layer === "letters" ? "numbers" : "letters";
    },
    { system: true, size: 16 },
  );
  key("space", "space", 2.45, 7.55, 3, () => type(" "), { size: 16 });
  key("return", "return", 7.7, 9.9, 3, () => target.onReturn?.(), { system: true, size: 16 });
}

function shiftTap(kb: KeyboardState, nowMs: number, upper: boolean): void {
  const double = nowMs - kb.shiftTappedMs < CAPS_LOCK_MS;
  kb.shiftTappedMs = nowMs;
  if (kb.shift === "lock") kb.shift = "off";
  else if (double) kb.shift = "lock";
  else kb.shift = upper ? "off" : "once";
}

/** The shift arrow (outline when off, filled when on, with a bar under it when locked). */
function shiftGlyph(cx: number, cy: number, ink: string, on: boolean, locked: boolean): string {
  const d = `M${cx} ${cy - 10} L${cx + 10} ${cy + 1} L${cx + 5} ${cy + 1} L${cx + 5} ${cy + 7} L${cx - 5} ${cy + 7} L${cx - 5} ${cy + 1} L${cx - 10} ${cy + 1} Z`;
  return (
    path(d, on ? ink : "none", `stroke="${ink}" stroke-width="1.4" stroke-linejoin="round"`) +
    (locked ? rect({ x: cx - 5, y: cy + 10, w: 10, h: 2 }, ink) : "")
  );
}

/** The delete key's ⌫ outline. */
function deleteGlyph(cx: number, cy: number, ink: string): string {
  const d = `M${cx - 13} ${cy} L${cx - 6} ${cy - 8} L${cx + 12} ${cy - 8} L${cx + 12} ${cy + 8} L${cx - 6} ${cy + 8} Z`;
  return (
    path(d, "none", `stroke="${ink}" stroke-width="1.6" stroke-linejoin="round"`) +
    path(
      `M${cx - 1} ${cy - 4} L${cx + 7} ${cy + 4} M${cx + 7} ${cy - 4} L${cx - 1} ${cy + 4}`,
      "none",
      `stroke="${ink}" stroke-width="1.6" stroke-linecap="round"`,
    )
  );
}
