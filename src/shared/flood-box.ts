/**
 * A seeded 4-connected flood fill over a row-major `w`×`h` grid that reports what the callers need of a
 * region: its bounding box and its cell count. The text-plate finder, the notification-badge scan and
 * the calibration blob finder each grow regions this way; they differ only in which cells belong.
 */

/** A filled region: inclusive cell bounds and the number of cells. */
export interface FloodRegion {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  count: number;
}

/**
 * Fills from `start` (which the caller has already marked visited) through 4-neighbours for which
 * `enter(q)` returns true. `enter` is called for each in-grid neighbour of each filled cell; it must mark
 * `q` visited when it accepts it and refuse a visited cell, so each cell is filled once. `stack` is
 * scratch of at least `w * h` entries (reusable across calls). The region's box and count do not depend
 * on the order cells are visited in.
 */
export function floodRegion(
  w: number,
  h: number,
  start: number,
  stack: Int32Array,
  enter: (q: number) => boolean,
): FloodRegion {
  let x0 = w;
  let y0 = h;
  let x1 = -1;
  let y1 = -1;
  let count = 0;
  let top = 0;
  stack[top++] = start;
  while (top > 0) {
    const p = stack[--top] as number;
    const x = p % w;
    const y = (p - x) / w;
    count++;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (x > 0 && enter(p - 1)) stack[top++] = p - 1;
    if (x < w - 1 && enter(p + 1)) stack[top++] = p + 1;
    if (y > 0 && enter(p - w)) stack[top++] = p - w;
    if (y < h - 1 && enter(p + w)) stack[top++] = p + w;
  }
  return { x0, y0, x1, y1, count };
}
