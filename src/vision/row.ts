import type { FracBox } from "../shared/box.js";

/**
 * The shape of one listing row (see `listing.ts` for the format). Kept apart from the listing's builder
 * so the passes that give rows their meaning (`semantics.ts` and its helpers) can share it.
 *
 * Kinds: `text` a line of OCR text; `icon` an unnamed glyph or control; `button` an icon-only button
 * whose shape was recognised (label = its symbol name: `add`, `back`, `close`…) or a keypad's call
 * button; `switch` an on/off switch (label = its row's title, with `state`); `key` one key of a
 * recognised keyboard or dial pad (label = the character it types, or `shift`, `delete`, `space`,
 * `return`, `123`…); `app` an app icon with the name printed under it; `widget` a home-screen widget (label = its caption, the app it opens); `status` the status bar
 * (label = its time); `checkbox` a selection mark (a photo picker's select circle; a row's check mark, label = the row's title) with `state`; `link` a
 * tinted or underlined run inside a line of text (label = its text; the line is listed whole too);
 * `slider` a slider's track from end to end, as tall as its knob (label = a title when one is known), with
 * `value`: where the knob sits (drag from there along the box to change it).
 */
export type ListingKind =
  | "text"
  | "icon"
  | "button"
  | "switch"
  | "key"
  | "app"
  | "widget"
  | "status"
  | "checkbox"
  | "link"
  | "slider";

export interface ListingEntry {
  /** 1-based, in reading order; the number drawn on the annotated image. */
  id: number;
  kind: ListingKind;
  /** What the element says or is called (see `ListingKind`); empty for an unnamed `icon`. */
  label: string;
  /** `switch` and `checkbox`: whether it is on (selected). */
  state?: "on" | "off";
  /**
   * `switch`: drawn dimmed (`isEnabled = false`: a setting locked by another one or by a profile), so a
   * tap does nothing; listed after the state (`[switch] "Wi-Fi" off disabled`).
   */
  disabled?: true;
  /** `slider`: the knob's centre along the track, 0 at the left end to 1 at the right end. */
  value?: number;
  /** Where a tap acts on the element. */
  box: FracBox;
  /** Where the label was read when that is not `box` (an app's name under its icon, a key's glyph). */
  labelBox?: FracBox;
  conf: number;
}

/** A row before numbering. */
export type Candidate = Omit<ListingEntry, "id">;

export const centreX = (b: FracBox): number => (b[0] + b[2]) / 2;
export const centreY = (b: FracBox): number => (b[1] + b[3]) / 2;
export const boxWidth = (b: FracBox): number => b[2] - b[0];
export const boxHeight = (b: FracBox): number => b[3] - b[1];

/** Whether the point lies inside the box (edges included). */
export const contains = (b: FracBox, x: number, y: number): boolean =>
  x >= b[0] && x <= b[2] && y >= b[1] && y <= b[3];
