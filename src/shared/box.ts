/** Boxes in 0–1 fractions of the image (or screen) they were found in, so they never depend on the
 * resolution a stage happened to run at. */

/** `[left, top, right, bottom]`, each in 0–1, left < right, top < bottom. */
export type FracBox = [left: number, top: number, right: number, bottom: number];

/**
 * Axis-aligned box geometry, the one copy used by the listing, the detector's decoder (NMS) and the
 * lab's evaluations. A box is `[left, top, right, bottom]` in any one unit (0–1 fractions or pixels);
 * missing entries count as 0 and a box whose right/bottom is not past its left/top is empty (area 0).
 */
export type BoxLike = readonly number[];

export function area(b: BoxLike): number {
  return Math.max(0, (b[2] ?? 0) - (b[0] ?? 0)) * Math.max(0, (b[3] ?? 0) - (b[1] ?? 0));
}

/** Area of the overlap of `a` and `b` (0 when they only touch or do not meet). */
export function intersection(a: BoxLike, b: BoxLike): number {
  const w = Math.min(a[2] ?? 0, b[2] ?? 0) - Math.max(a[0] ?? 0, b[0] ?? 0);
  const h = Math.min(a[3] ?? 0, b[3] ?? 0) - Math.max(a[1] ?? 0, b[1] ?? 0);
  return w > 0 && h > 0 ? w * h : 0;
}

/** Intersection over union (0 when either box is empty or they do not overlap). */
export function iou(a: BoxLike, b: BoxLike): number {
  const i = intersection(a, b);
  return i > 0 ? i / (area(a) + area(b) - i) : 0;
}

/**
 * Intersection over the smaller box's area: 1 when one box lies inside the other (0 when either is
 * empty). Useful when one side's boxes are systematically padded, as OCR boxes are.
 */
export function overlap(a: BoxLike, b: BoxLike): number {
  const m = Math.min(area(a), area(b));
  return m > 0 ? intersection(a, b) / m : 0;
}

/** The smallest box containing all `boxes` (callers pass at least one). */
export function union(boxes: readonly BoxLike[]): FracBox {
  return [
    Math.min(...boxes.map((b) => b[0] ?? 0)),
    Math.min(...boxes.map((b) => b[1] ?? 0)),
    Math.max(...boxes.map((b) => b[2] ?? 0)),
    Math.max(...boxes.map((b) => b[3] ?? 0)),
  ];
}

const centreY = (b: BoxLike): number => ((b[1] ?? 0) + (b[3] ?? 0)) / 2;
const height = (b: BoxLike): number => (b[3] ?? 0) - (b[1] ?? 0);

/**
 * Reading order: boxes sorted by vertical centre are grouped into rows (an item joins the current row
 * when its centre is within half the smaller of its and the row's first item's heights of that first
 * item's centre), rows top to bottom, left to right within a row, so a row of labels whose tops differ
 * by a pixel still reads left to right. Returns a new array; the input is not changed.
 */
export function readingOrder<T extends { box: BoxLike }>(items: readonly T[]): T[] {
  const byCentre = [...items].sort((a, b) => centreY(a.box) - centreY(b.box));
  const rows: T[][] = [];
  for (const item of byCentre) {
    const row = rows.at(-1);
    const anchor = row?.[0];
    if (
      row &&
      anchor &&
      Math.abs(centreY(item.box) - centreY(anchor.box)) <= Math.min(height(item.box), height(anchor.box)) / 2
    ) {
      row.push(item);
      continue;
    }
    rows.push([item]);
  }
  return rows.flatMap((row) => row.sort((a, b) => (a.box[0] ?? 0) - (b.box[0] ?? 0)));
}
