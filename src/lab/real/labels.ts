import { z } from "zod";

/**
 * The label format of the real-screen development set (`datasets/real-iphone/labels/<id>.json`): what a
 * person sees on one real iPhone screenshot, written by hand (drafted by `prelabel.ts`, corrected by
 * eye). Boxes are `[left, top, right, bottom]` in 0–1 fractions of the image.
 */

const box = z
  .tuple([
    z.number().min(0).max(1),
    z.number().min(0).max(1),
    z.number().min(0).max(1),
    z.number().min(0).max(1),
  ])
  .refine(
    (b) => b[0] < b[2] && b[1] < b[3],
    "box must be [left, top, right, bottom] with left<right, top<bottom",
  );

/** Kinds of tappable element a person would name. */
export const ELEMENT_KINDS = [
  "app", // an app icon (home screen, dock, share sheet app row); label = the app's name
  "button", // a button with text or an icon-only button; label = its text, or a short name of its symbol
  "switch", // an on/off switch; state required
  "key", // a keyboard or dial-pad key; char required
  "tab", // a tab-bar item
  "row", // a tappable table/list row (label = its title)
  "field", // a text field / search field
  "segment", // one segment of a segmented control
  "slider", // a slider's track
  "checkbox", // a checkmark / radio / selectable circle
  "link", // tappable text in body copy
  "other",
] as const;

export const realElementSchema = z.strictObject({
  kind: z.enum(ELEMENT_KINDS),
  /** What a person would call it: its text, the app name, or a short symbol name ("add", "back"). */
  label: z.string(),
  /** True when the element shows no text of its own (an icon-only button, an app icon). */
  iconOnly: z.boolean().default(false),
  /** `switch`: "on"/"off"; `checkbox`/`segment`/`tab`: "on" when selected. */
  state: z.enum(["on", "off"]).optional(),
  /** `key`: the character typed ("q", "1", "*", " " for space) or a name: "shift", "delete", "return", "123", "emoji", "globe", "call". */
  char: z.string().optional(),
  box,
});

export const realTextSchema = z.strictObject({
  /** The line's text exactly as shown (case, punctuation; Chinese as shown). */
  text: z.string().min(1),
  box,
});

export const realScreenSchema = z.strictObject({
  /** File name in `images/`. */
  image: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  lang: z.enum(["en", "zh", "mixed", "other"]),
  theme: z.enum(["light", "dark"]),
  /** What the screen is: home, lock, settings, messages, phone, dialpad, keyboard, clock, appstore, alert, share, control-center, app. */
  screen: z.string(),
  /** The status bar's box (time, signal, battery), listed as one `[status]` row; null when absent. */
  statusBar: box.nullable(),
  /** Every line of readable text outside the status bar (including text inside buttons and rows). */
  text: z.array(realTextSchema),
  /** Every tappable element. */
  elements: z.array(realElementSchema),
  /** Labeller's remarks: what was hard, what was left out. */
  notes: z.string().default(""),
  /**
   * Areas the labeller left partly unlabelled on purpose, each with why (a map's many tappable pins).
   * A row there on no labelled target is counted apart, neither right nor spurious; what is labelled
   * there is scored as anywhere else. Ignore regions in the manner of COCO's `iscrowd`.
   */
  unlabelled: z.array(z.strictObject({ box, why: z.string().min(1) })).default([]),
});

export type RealScreen = z.infer<typeof realScreenSchema>;
