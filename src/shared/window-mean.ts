/**
 * Local means over square windows in O(1) per pixel, from a summed-area table (Crow 1984): the
 * adaptive thresholds of the calibration blob finder and of the glyph proposer both compare a pixel
 * with the mean of the window around it.
 */

/** Summed-area table of a row-major `w`×`h` grid: `(w+1)×(h+1)`, first row and column zero. */
export function summedArea(values: ArrayLike<number>, w: number, h: number): Float64Array {
  const W1 = w + 1;
  const s = new Float64Array(W1 * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) {
      row += values[y * w + x] ?? 0;
      s[(y + 1) * W1 + x + 1] = (s[y * W1 + x + 1] as number) + row;
    }
  }
  return s;
}

/** Mean of the `(2r+1)²` window centred on `(x, y)`, clipped to the `w`×`h` grid of `table`. */
export function windowMean(
  table: Float64Array,
  w: number,
  h: number,
  x: number,
  y: number,
  r: number,
): number {
  const W1 = w + 1;
  const x0 = Math.max(0, x - r);
  const x1 = Math.min(w, x + r + 1);
  const y0 = Math.max(0, y - r);
  const y1 = Math.min(h, y + r + 1);
  const sum =
    (table[y1 * W1 + x1] as number) -
    (table[y0 * W1 + x1] as number) -
    (table[y1 * W1 + x0] as number) +
    (table[y0 * W1 + x0] as number);
  return sum / ((y1 - y0) * (x1 - x0));
}
