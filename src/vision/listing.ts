import { area, type FracBox, intersection, iou, readingOrder } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import type { IconMemory } from "./icon-memory.js";
import { withLinks } from "./links.js";
import type { Candidate, ListingEntry } from "./row.js";
import { applyScreenSemantics } from "./semantics.js";
import type { DetectedObject, TextLine } from "./types.js";

/**
 * The listing: what the agent reads instead of pixels. One row per element,
 * `id [kind] "label" [left,top,right,bottom] conf` (a switch or checkbox adds its state after the label:
 * `7 [switch] "Wi-Fi" on [0.81,0.30,0.95,0.34] 0.93`, and `disabled` after it when the switch is drawn
 * dimmed, `8 [switch] "Wi-Fi" off disabled […]`; a slider its knob's position: `9 [slider] "" 21% […]`), boxes in 0–1 fractions of the rectified screen
 * with 3 decimals, sorted top-to-bottom then left-to-right, duplicates merged. Tapping a row's centre
 * acts on that one element: rows never span two targets.
 */

export type { ListingEntry, ListingKind } from "./row.js";

export interface ListingOptions {
  /** Same-kind boxes overlapping more than this (IoU) are one element. */
  dedupeIou: number;
  /** An icon mostly covered by a text line (intersection / icon area) is that text's glyphs, not an icon. */
  iconInTextCover: number;
  /** Detector classes listed as `icon` (everything else the detector finds is left to OCR). */
  iconClasses: readonly string[];
}

export const DEFAULT_LISTING_OPTIONS: ListingOptions = {
  dedupeIou: 0.5,
  iconInTextCover: 0.7,
  iconClasses: ["icon", "control"],
};

const clampBox = (b: FracBox): FracBox => [
  Math.min(Math.max(b[0], 0), 1),
  Math.min(Math.max(b[1], 0), 1),
  Math.min(Math.max(b[2], 0), 1),
  Math.min(Math.max(b[3], 0), 1),
];

/** Keep the most confident of each group of overlapping same-kind candidates (greedy NMS). */
function dedupe(items: Candidate[], threshold: number): Candidate[] {
  const kept: Candidate[] = [];
  for (const c of [...items].sort((a, b) => b.conf - a.conf)) {
    const twin = kept.find((k) => k.kind === c.kind && iou(k.box, c.box) > threshold);
    if (!twin) kept.push(c);
    // Same text read twice with different boxes: the more confident reading wins, nothing to merge.
  }
  return kept;
}

/**
 * Merge OCR text and detected objects into numbered listing entries. With the `screen` pixels the rows
 * also get their meaning (`applyScreenSemantics`: keyboards and dial pads key by key, switches with their
 * state, named app icons, recognised icon buttons, one status-bar row); without, rows are `text`/`icon`.
 * `memory` (the phone's icon memory, `icon-memory.ts`) names dock icons seen elsewhere with a name.
 */
export function buildListing(
  text: readonly TextLine[],
  objects: readonly DetectedObject[],
  options: ListingOptions = DEFAULT_LISTING_OPTIONS,
  screen?: RgbImage,
  memory?: IconMemory,
): ListingEntry[] {
  const texts: Candidate[] = text
    .filter((t) => t.text.trim() !== "")
    .map((t) => ({ kind: "text", label: t.text.trim(), box: clampBox(t.box), conf: t.conf }));
  const icons: Candidate[] = objects
    .filter((o) => options.iconClasses.includes(o.cls))
    .map((o) => ({ kind: "icon" as const, label: "", box: clampBox(o.box), conf: o.conf }))
    .filter((c) => area(c.box) > 0)
    .filter((c) => !texts.some((t) => intersection(t.box, c.box) / area(c.box) >= options.iconInTextCover));
  const merged = dedupe([...texts, ...icons], options.dedupeIou);
  // Links inside text lines (`links.ts`): a row of their own beside the whole line.
  const rows = screen ? withLinks(screen, text, applyScreenSemantics(screen, merged, memory)) : merged;
  return readingOrder(rows).map((c, i) => ({ id: i + 1, ...c }));
}

const f3 = (v: number): string => v.toFixed(3);

/** Escape a label for the row's double quotes (and keep each row on one line). */
function quote(label: string): string {
  return `"${label
    .replace(/\\/g, "\\\\")
    .replace(/"/g, '\\"')
    .replace(/[\r\n]+/g, " ")}"`;
}

/** One row: `3 [text] "Clock" [0.061,0.188,0.203,0.204] 0.97`; a switch: `7 [switch] "Wi-Fi" on [...] 0.93`. */
export function formatEntry(e: ListingEntry): string {
  const state =
    (e.state ? ` ${e.state}` : e.value !== undefined ? ` ${Math.round(e.value * 100)}%` : "") +
    (e.disabled ? " disabled" : "");
  return `${e.id} [${e.kind}] ${quote(e.label)}${state} [${e.box.map(f3).join(",")}] ${e.conf.toFixed(2)}`;
}

export function formatListing(entries: readonly ListingEntry[]): string {
  return entries.map(formatEntry).join("\n");
}
