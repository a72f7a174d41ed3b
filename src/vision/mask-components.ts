/** A connected component of a mask: its box (`x1`, `y1` exclusive) and its pixel count. */
export interface MaskComponent {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  n: number;
}

/**
 * The connected components of the set pixels of `mask` (`w`×`h`, row-major, non-zero = set), 4-connected
 * or, with `diagonal`, 8-connected, in the order of each component's first pixel in raster order (the
 * order a flood fill started at every unvisited pixel in turn finds them). With `labels` (`w·h`), each
 * set pixel is given its component's 1-based index there (other pixels are left as they are).
 *
 * Labelled by runs, not pixels: each row's runs of set pixels are joined (union–find) to the runs of
 * the row above that touch them. A flood fill visits every pixel and tests its four or eight
 * neighbours; a run is found by one scan of its row and touches the row above a few times, so a
 * mostly-set mask (a photo page's content, a screen's ink at full resolution) costs a fraction.
 */
export function maskComponents(
  mask: Uint8Array,
  w: number,
  h: number,
  diagonal: boolean,
  labels?: Int32Array,
): MaskComponent[] {
  let runs = new Runs(1024);
  let prevStart = 0;
  let prevEnd = 0;
  // A run [s, e) touches one [a, b) of the row above when they share a column (4-connected), or also a
  // corner (8-connected): a < e + slack and s − slack < b.
  const slack = diagonal ? 1 : 0;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    const rowStart = runs.count;
    let j = prevStart;
    let x = 0;
    while (x < w) {
      if (!mask[row + x]) {
        x++;
        continue;
      }
      const s = x;
      while (x < w && mask[row + x]) x++;
      if (runs.count === runs.x0.length) runs = runs.grown();
      const id = runs.count++;
      runs.x0[id] = s;
      runs.x1[id] = x;
      runs.y[id] = y;
      runs.parent[id] = id;
      while (j < prevEnd && (runs.x1[j] as number) <= s - slack) j++;
      for (let k = j; k < prevEnd && (runs.x0[k] as number) < x + slack; k++) runs.union(k, id);
    }
    prevStart = rowStart;
    prevEnd = runs.count;
  }
  const out: MaskComponent[] = [];
  const index = new Int32Array(runs.count).fill(-1);
  for (let i = 0; i < runs.count; i++) {
    const root = runs.find(i);
    let c = index[root] as number;
    if (c < 0) {
      c = out.length;
      index[root] = c;
      out.push({ x0: w, y0: h, x1: 0, y1: 0, n: 0 });
    }
    const comp = out[c] as MaskComponent;
    const x0 = runs.x0[i] as number;
    const x1 = runs.x1[i] as number;
    const y = runs.y[i] as number;
    comp.n += x1 - x0;
    if (x0 < comp.x0) comp.x0 = x0;
    if (x1 > comp.x1) comp.x1 = x1;
    if (y < comp.y0) comp.y0 = y;
    if (y + 1 > comp.y1) comp.y1 = y + 1;
    if (labels) labels.fill(c + 1, y * w + x0, y * w + x1);
  }
  return out;
}

/** Runs of set pixels (start, end, row) with a union–find forest over them; grown by doubling. */
class Runs {
  count = 0;
  readonly x0: Int32Array;
  readonly x1: Int32Array;
  readonly y: Int32Array;
  readonly parent: Int32Array;

  constructor(capacity: number) {
    this.x0 = new Int32Array(capacity);
    this.x1 = new Int32Array(capacity);
    this.y = new Int32Array(capacity);
    this.parent = new Int32Array(capacity);
  }

  /** A copy with twice the room. */
  grown(): Runs {
    const g = new Runs(this.x0.length * 2);
    g.count = this.count;
    g.x0.set(this.x0);
    g.x1.set(this.x1);
    g.y.set(this.y);
    g.parent.set(this.parent);
    return g;
  }

  /** The root of run `i`'s tree (path halving). */
  find(i: number): number {
    const p = this.parent;
    let r = i;
    while (p[r] !== r) {
      const up = p[p[r] as number] as number;
      p[r] = up;
      r = up;
    }
    return r;
  }

  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra < rb) this.parent[rb] = ra;
    else if (rb < ra) this.parent[ra] = rb;
  }
}
