import type { FracBox } from "../shared/box.js";
import type { Candidate } from "./row.js";
import { boxHeight, boxWidth, centreX } from "./row.js";

/**
 * App icons named by the text printed under them (home screen, dock with names, share sheet app row,
 * App Library): an `icon` row with a short text line centred directly below it becomes one
 * `[app] "Name"` row with the icon's box (the tappable tile), and the name's own row goes (one row, one
 * target). A text row that runs under two or more icons (OCR joined two neighbouring names) is split
 * between them first, so no row's centre falls between two apps.
 */

/** Rough pixel aspect of the screen (height / width): icon boxes are square in pixels, not in fractions. */
interface ScreenShape {
  aspect: number;
}

/** An icon is app-sized: 40–90 pt on a ~390 pt wide screen (home 60 pt, share sheet 60–70, dock 60). */
const MIN_APP_WIDTH = 0.1;
const MAX_APP_WIDTH = 0.24;
/** The name sits below the icon within this many icon heights of its bottom edge. */
export const NAME_GAP = 0.45;
/**
 * A name is small beside its tile: iOS sets home-screen, dock and share-sheet names in 11–12 pt text
 * under 60 pt icons (call screens: 13 pt captions under 72 pt buttons), so the line's height is about
 * a fifth of the icon's. A line set large under a round 44 pt button (a note's first line under the
 * back button) is content, not a name.
 */
const MAX_NAME_HEIGHT = 0.35;
/** Names are short: a home-screen label truncates at ~12 characters. */
const MAX_NAME_CHARS = 24;

/** Whether `r` is an app-sized, square `icon` row (a home-screen, dock or share-sheet tile). */
export function isAppIcon(r: Candidate, shape: ScreenShape): boolean {
  if (r.kind !== "icon") return false;
  const w = boxWidth(r.box);
  const hInWidths = boxHeight(r.box) * shape.aspect;
  return w >= MIN_APP_WIDTH && w <= MAX_APP_WIDTH && hInWidths / w > 0.75 && hInWidths / w < 1.33;
}

/** Whether `text` sits directly under `icon`, starting within `NAME_GAP` icon heights of its bottom. */
function below(icon: FracBox, text: FracBox): boolean {
  const ih = boxHeight(icon);
  return text[1] >= icon[3] - 0.15 * ih && text[1] <= icon[3] + NAME_GAP * ih;
}

/**
 * Split `text` (one OCR line) at the word gaps nearest the midpoints between the icons above it,
 * placing characters evenly across the line's box. Returns one piece per icon, or null when the line
 * has too few word gaps to give every icon a piece.
 */
function splitUnder(text: Candidate, icons: readonly Candidate[]): Candidate[] | null {
  const chars = Array.from(text.label);
  const gaps = chars.flatMap((c, i) => (c === " " ? [i] : []));
  if (gaps.length < icons.length - 1) return null;
  const [l, , r] = text.box;
  const xOf = (i: number): number => l + ((r - l) * (i + 0.5)) / chars.length;
  const cuts: number[] = [];
  for (let k = 0; k + 1 < icons.length; k++) {
    const a = icons[k];
    const b = icons[k + 1];
    if (!a || !b) return null;
    const mid = (centreX(a.box) + centreX(b.box)) / 2;
    const best = gaps
      .filter((g) => g > (cuts.at(-1) ?? -1))
      .sort((g1, g2) => Math.abs(xOf(g1) - mid) - Math.abs(xOf(g2) - mid))[0];
    if (best === undefined) return null;
    cuts.push(best);
  }
  const bounds = [-1, ...cuts, chars.length];
  const pieces: Candidate[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const from = (bounds[k] ?? 0) + 1;
    const to = bounds[k + 1] ?? chars.length;
    const label = chars.slice(from, to).join("").trim();
    if (label === "") return null;
    const x0 = l + ((r - l) * from) / chars.length;
    const x1 = l + ((r - l) * to) / chars.length;
    pieces.push({ ...text, label, box: [x0, text.box[1], x1, text.box[3]] });
  }
  return pieces;
}

export function nameAppIcons(rows: readonly Candidate[], shape: ScreenShape): Candidate[] {
  const icons = rows.filter((r) => isAppIcon(r, shape));
  if (icons.length === 0) return [...rows];
  // 1. Split text lines that run under several icons.
  const split: Candidate[] = [];
  for (const r of rows) {
    if (r.kind !== "text") {
      split.push(r);
      continue;
    }
    const over = icons
      .filter((i) => below(i.box, r.box) && centreX(i.box) > r.box[0] && centreX(i.box) < r.box[2])
      .sort((a, b) => centreX(a.box) - centreX(b.box));
    const pieces = over.length >= 2 ? splitUnder(r, over) : null;
    split.push(...(pieces ?? [r]));
  }
  // 2. Each icon takes the short line centred under it.
  const used = new Set<Candidate>();
  const named = new Map<Candidate, Candidate>();
  for (const icon of icons) {
    const iw = boxWidth(icon.box);
    const name = split
      .filter(
        (t) =>
          t.kind === "text" &&
          !used.has(t) &&
          below(icon.box, t.box) &&
          Math.abs(centreX(t.box) - centreX(icon.box)) < 0.3 * iw &&
          boxWidth(t.box) < 1.9 * iw &&
          boxHeight(t.box) <= MAX_NAME_HEIGHT * boxHeight(icon.box) &&
          Array.from(t.label).length <= MAX_NAME_CHARS,
      )
      .sort((a, b) => a.box[1] - b.box[1])[0];
    if (!name) continue;
    used.add(name);
    named.set(icon, { kind: "app", label: name.label, box: icon.box, labelBox: name.box, conf: icon.conf });
  }
  return split.filter((r) => !used.has(r)).map((r) => named.get(r) ?? r);
}
