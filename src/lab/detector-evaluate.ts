import { type FracBox, iou } from "../shared/box.js";
import type { DetectedObject } from "../vision/types.js";

/** A ground-truth object: class name and box in 0–1 fractions. */
export interface TruthObject {
  cls: string;
  box: FracBox;
}

/** Counts for one class: true positives, detections, ground-truth objects. */
export interface ClassCounts {
  tp: number;
  detected: number;
  truth: number;
}

/**
 * Match detections to ground truth the way models/icon-detector/evaluate.py does: best score first,
 * each detection takes the unmatched truth object of its class it overlaps most, and counts as a true
 * positive when that IoU is at least `minIou`. IoU is computed on 0–1 boxes scaled by `aspect`
 * (height/width of the image) so it equals IoU in pixels.
 */
export function countMatches(
  detections: readonly DetectedObject[],
  truth: readonly TruthObject[],
  minIou = 0.5,
  aspect = 1,
): Map<string, ClassCounts> {
  const counts = new Map<string, ClassCounts>();
  const get = (cls: string): ClassCounts => {
    let c = counts.get(cls);
    if (!c) {
      c = { tp: 0, detected: 0, truth: 0 };
      counts.set(cls, c);
    }
    return c;
  };
  const px = (b: FracBox): number[] => [b[0], b[1] * aspect, b[2], b[3] * aspect];
  for (const t of truth) get(t.cls).truth++;
  const used = new Array<boolean>(truth.length).fill(false);
  for (const d of [...detections].sort((a, b) => b.conf - a.conf)) {
    const c = get(d.cls);
    c.detected++;
    let best = -1;
    let bestIou = 0;
    truth.forEach((t, i) => {
      if (used[i] || t.cls !== d.cls) return;
      const v = iou(px(d.box), px(t.box));
      if (v > bestIou) {
        bestIou = v;
        best = i;
      }
    });
    if (best >= 0 && bestIou >= minIou) {
      used[best] = true;
      c.tp++;
    }
  }
  return counts;
}

/** Add `more` into `into` (per class). */
export function addCounts(into: Map<string, ClassCounts>, more: Map<string, ClassCounts>): void {
  for (const [cls, c] of more) {
    const t = into.get(cls) ?? { tp: 0, detected: 0, truth: 0 };
    into.set(cls, { tp: t.tp + c.tp, detected: t.detected + c.detected, truth: t.truth + c.truth });
  }
}

/** Precision and recall (0 when there is nothing to divide by). */
export function precisionRecall(c: ClassCounts): { precision: number; recall: number } {
  return { precision: c.detected ? c.tp / c.detected : 0, recall: c.truth ? c.tp / c.truth : 0 };
}
