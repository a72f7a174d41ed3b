import { type FracBox, iou } from "../../shared/box.js";
import type { DetectedObject } from "../../vision/types.js";
import type { RealScreen } from "./labels.js";

/**
 * Scores the UI detector on a labelled real screen (`datasets/real-iphone/labels/*.json`). The labels
 * name tappable elements by kind (app, button, switch, key…) and text lines, not detector classes, so
 * the match is by position, not class: an element is **found** when some detection's centre lies inside
 * its box, and has **its own box** when such a detection also overlaps it with IoU ≥ `ownIou` (a
 * detection of the whole row does not give the ⓘ button in it a box of its own). A detection is
 * **on target** when its centre lies inside any labelled element or text line; detections centred in
 * the status bar are left out of precision (the listing folds them into one status row).
 */

/** Counts for one kind of labelled thing. */
export interface KindCounts {
  total: number;
  found: number;
  own: number;
}

export interface RealDetectorScore {
  /** Keyed by group: element kinds (`switch`, `key`…), refined (`button icon-only`, `switch off`) and `text`. */
  kinds: Map<string, KindCounts>;
  /** Detections counted for precision, per detector class, and how many were on target. */
  detections: Map<string, { total: number; onTarget: number }>;
}

export function emptyScore(): RealDetectorScore {
  return { kinds: new Map(), detections: new Map() };
}

const inside = (b: FracBox, x: number, y: number): boolean =>
  x >= b[0] && x <= b[2] && y >= b[1] && y <= b[3];
const centre = (b: FracBox): [number, number] => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];

/** The groups one labelled element counts in: its kind, plus a finer group where one helps. */
export function groupsOf(el: RealScreen["elements"][number]): string[] {
  const out: string[] = [el.kind];
  if (el.kind === "button") out.push(el.iconOnly ? "button icon-only" : "button with text");
  if (el.kind === "switch" && el.state) out.push(`switch ${el.state}`);
  if (el.kind === "key") out.push(/^[0-9*#+]$/.test(el.char ?? "") ? "key digit/*/#" : "key other");
  return out;
}

/**
 * Add one screen's outcome to `score`. `aspect` = image height / width, so IoU on 0–1 boxes equals
 * IoU in pixels. `ownIou` is the overlap that makes a detection an element's own box.
 */
export function scoreScreen(
  score: RealDetectorScore,
  screen: RealScreen,
  detections: readonly DetectedObject[],
  ownIou = 0.3,
): void {
  const aspect = screen.height / screen.width;
  const px = (b: FracBox): FracBox => [b[0], b[1] * aspect, b[2], b[3] * aspect];
  const add = (group: string, found: boolean, own: boolean): void => {
    const c = score.kinds.get(group) ?? { total: 0, found: 0, own: 0 };
    c.total++;
    if (found) c.found++;
    if (own) c.own++;
    score.kinds.set(group, c);
  };
  const judge = (box: FracBox): [boolean, boolean] => {
    const hits = detections.filter((d) => inside(box, ...centre(d.box)));
    return [hits.length > 0, hits.some((d) => iou(px(d.box), px(box)) >= ownIou)];
  };
  for (const el of screen.elements) {
    const [found, own] = judge(el.box);
    for (const g of groupsOf(el)) add(g, found, own);
  }
  for (const line of screen.text) {
    const [found, own] = judge(line.box);
    add("text", found, own);
  }
  const targets = [...screen.elements.map((e) => e.box), ...screen.text.map((t) => t.box)];
  for (const d of detections) {
    const [x, y] = centre(d.box);
    if (screen.statusBar && inside(screen.statusBar, x, y)) continue;
    const c = score.detections.get(d.cls) ?? { total: 0, onTarget: 0 };
    c.total++;
    if (targets.some((b) => inside(b, x, y))) c.onTarget++;
    score.detections.set(d.cls, c);
  }
}

/** One line per element no detection is centred in: `screen kind "label" [box]`, for reading misses. */
export function missedElements(screen: RealScreen, detections: readonly DetectedObject[]): string[] {
  return screen.elements
    .filter((el) => !detections.some((d) => inside(el.box, ...centre(d.box))))
    .map(
      (el) =>
        `${screen.image} ${groupsOf(el).at(-1)} "${el.char ?? el.label}" [${el.box.map((v) => v.toFixed(2)).join(", ")}]`,
    );
}
