/**
 * The shapes `icon-shapes.ts` compares icon ink with, drawn here from lines, circles and polygons on
 * an `N`×`N` grid (no Apple artwork is used: SF Symbols' outlines are thin strokes of these same
 * shapes), each with the structure a symbol must have to take its name (`Gate`).
 */

export const N = 24;

export type Mask = Uint8Array;

/** A pen: `plot(x, y)` inks a disc of the pen's width centred at grid point (x, y). */
export type Plot = (x: number, y: number) => void;

/**
 * Draw on a `N`×`N` mask with a pen of `width` cells: `paint` calls the pen along its strokes. Draws
 * into `m` when given (to add strokes to a filled shape), else into a new mask.
 */
export function draw(paint: (plot: Plot) => void, width = 2.2, m: Mask = new Uint8Array(N * N)): Mask {
  const r = width / 2;
  paint((x, y) => {
    for (let yy = Math.floor(y - r); yy <= Math.ceil(y + r); yy++)
      for (let xx = Math.floor(x - r); xx <= Math.ceil(x + r); xx++)
        if (xx >= 0 && yy >= 0 && xx < N && yy < N && (xx + 0.5 - x) ** 2 + (yy + 0.5 - y) ** 2 <= r * r)
          m[yy * N + xx] = 1;
  });
  return m;
}
/** A straight stroke from (x0, y0) to (x1, y1), plotted every half cell. */
export function line(plot: Plot, x0: number, y0: number, x1: number, y1: number): void {
  const steps = Math.ceil(Math.hypot(x1 - x0, y1 - y0) * 2) + 1;
  for (let i = 0; i <= steps; i++) plot(x0 + ((x1 - x0) * i) / steps, y0 + ((y1 - y0) * i) / steps);
}
function ring(plot: Plot, cx: number, cy: number, r: number): void {
  for (let a = 0; a < 360; a += 3)
    plot(cx + r * Math.cos((a * Math.PI) / 180), cy + r * Math.sin((a * Math.PI) / 180));
}
function dot(plot: Plot, cx: number, cy: number, r: number): void {
  for (let rr = 0; rr <= r; rr += 0.5) ring(plot, cx, cy, rr);
}

/** Cells of `cut` cleared from `m` (white strokes inside a filled symbol). */
function minus(m: Mask, cut: Mask): Mask {
  return m.map((v, i) => (cut[i] ? 0 : v));
}
/** Fill the polygon with vertices `pts` (filled play triangle, heart), into `m` when given. */
export function polygon(pts: readonly (readonly [number, number])[], m: Mask = new Uint8Array(N * N)): Mask {
  for (let y = 0; y < N; y++)
    for (let x = 0; x < N; x++) {
      let inside = false;
      for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
        const [xi, yi] = pts[i] ?? [0, 0];
        const [xj, yj] = pts[j] ?? [0, 0];
        const px = x + 0.5;
        const py = y + 0.5;
        if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
      }
      if (inside) m[y * N + x] = 1;
    }
  return m;
}

/** Dice overlap of two masks: 2·|a∩b| / (|a| + |b|), 0 when both are empty. */
export function dice(a: Mask, b: Mask): number {
  let both = 0;
  let sa = 0;
  let sb = 0;
  for (let i = 0; i < a.length; i++) {
    sa += a[i] ?? 0;
    sb += b[i] ?? 0;
    if (a[i] && b[i]) both++;
  }
  return sa + sb > 0 ? (2 * both) / (sa + sb) : 0;
}

const E = N - 1.5;
const C = N / 2;
const eraser = (p: (x: number, y: number) => void): void => {
  line(p, 7, 4, E, 4);
  line(p, E, 4, E, N - 4);
  line(p, E, N - 4, 7, N - 4);
  line(p, 7, 4, 1.5, C);
  line(p, 1.5, C, 7, N - 4);
};
const heartOutline: readonly (readonly [number, number])[] = [
  ...Array.from({ length: 13 }, (_, k): [number, number] => {
    const a = Math.PI + (k * Math.PI) / 12;
    return [6.5 + 5.2 * Math.cos(a), 7.5 + 5.2 * Math.sin(a)];
  }),
  ...Array.from({ length: 13 }, (_, k): [number, number] => {
    const a = Math.PI + (k * Math.PI) / 12;
    return [17.5 + 5.2 * Math.cos(a), 7.5 + 5.2 * Math.sin(a)];
  }),
  [22.7, 9],
  [C, E],
  [1.3, 9],
];

/**
 * Structure a symbol must have to take a template's name: its count of ink parts (8-connected) and of
 * holes (background regions enclosed by ink), and the range of its ink's width / height. These are
 * scale-invariant, so they gate the template match (a row of three passcode dots is not `more` unless
 * the dots sit close like ⋯).
 */
export interface Gate {
  parts: readonly number[];
  holes: readonly number[];
  aspect: readonly [number, number];
}

const TEMPLATES: { name: string; mask: Mask; gates: Gate[] }[] = [
  {
    name: "add",
    mask: draw((p) => {
      line(p, C, 1.5, C, E);
      line(p, 1.5, C, E, C);
    }),
    gates: [{ parts: [1], holes: [0], aspect: [0.8, 1.25] }],
  },
  {
    name: "close",
    mask: draw((p) => {
      line(p, 1.5, 1.5, E, E);
      line(p, E, 1.5, 1.5, E);
    }),
    gates: [{ parts: [1], holes: [0], aspect: [0.8, 1.25] }],
  },
  {
    name: "back",
    mask: draw((p) => {
      line(p, E - 5, 1.5, 6, C);
      line(p, 6, C, E - 5, E);
    }),
    gates: [{ parts: [1], holes: [0], aspect: [0.3, 0.8] }],
  },
  {
    name: "search",
    mask: draw((p) => {
      ring(p, 9.5, 9.5, 8);
      line(p, 15.5, 15.5, E, E);
    }),
    gates: [{ parts: [1], holes: [1], aspect: [0.8, 1.25] }],
  },
  {
    name: "more",
    mask: draw((p) => {
      dot(p, 3, C, 2.5);
      dot(p, C, C, 2.5);
      dot(p, N - 3, C, 2.5);
    }),
    gates: [{ parts: [3], holes: [0], aspect: [2.5, 6] }],
  },
  {
    name: "share",
    mask: draw((p) => {
      line(p, 6, 9, 1.5, 9);
      line(p, 1.5, 9, 1.5, E);
      line(p, 1.5, E, E, E);
      line(p, E, E, E, 9);
      line(p, E, 9, N - 6, 9);
      line(p, C, 1.5, C, 15);
      line(p, C, 1.5, 7.5, 6);
      line(p, C, 1.5, N - 7.5, 6);
    }),
    gates: [{ parts: [1, 2], holes: [0], aspect: [0.6, 1] }],
  },
  {
    name: "menu",
    mask: draw((p) => {
      line(p, 2, C - 6.5, N - 2, C - 6.5);
      line(p, 2, C, N - 2, C);
      line(p, 2, C + 6.5, N - 2, C + 6.5);
    }),
    gates: [{ parts: [3], holes: [0], aspect: [1.1, 2.2] }],
  },
  {
    name: "play",
    mask: polygon([
      [4, 1.5],
      [E, C],
      [4, E],
    ]),
    gates: [{ parts: [1], holes: [0], aspect: [0.6, 1] }],
  },
  {
    name: "pause",
    mask: draw((p) => {
      for (const x of [6, 7, 8, N - 8, N - 7, N - 6]) line(p, x, 1.5, x, E);
    }),
    gates: [{ parts: [2], holes: [0], aspect: [0.5, 1.1] }],
  },
  {
    name: "heart",
    mask: minus(
      polygon(heartOutline),
      polygon(heartOutline.map(([x, y]) => [C + (x - C) * 0.75, 1 + y * 0.8])),
    ),
    gates: [{ parts: [1], holes: [1], aspect: [0.9, 1.4] }],
  },
  {
    name: "delete",
    mask: draw((p) => {
      eraser(p);
      line(p, 11, 8.5, 18, 15.5);
      line(p, 18, 8.5, 11, 15.5);
    }),
    gates: [{ parts: [2], holes: [1], aspect: [1.1, 1.8] }],
  },
];

/**
 * What sits inside a round container (`plus.circle`, `info.circle.fill`, `play.circle`…), classified
 * on its own: the inner glyph's name is the symbol's name. Drawn full-size like the bare glyphs.
 */
const CONTENT_TEMPLATES: { name: string; mask: Mask; gates: Gate[] }[] = [
  ...TEMPLATES.filter((t) => ["add", "close", "more"].includes(t.name) && t.gates[0]?.parts[0] !== 4),
  {
    name: "info",
    mask: draw((p) => {
      dot(p, C, 2.5, 2.2);
      line(p, C, 8.5, C, E);
    }, 4),
    gates: [{ parts: [2], holes: [0], aspect: [0.15, 0.6] }],
  },
  {
    name: "help",
    mask: draw((p) => {
      for (let a = 190; a <= 410; a += 5)
        p(C + 6.5 * Math.cos((a * Math.PI) / 180), 8 + 6.5 * Math.sin((a * Math.PI) / 180));
      line(p, C + 1, 14.5, C, 17);
      dot(p, C, E - 1, 1.5);
    }, 3),
    gates: [{ parts: [2], holes: [0], aspect: [0.45, 0.9] }],
  },
  {
    name: "play",
    mask: polygon([
      [4, 1.5],
      [E, C],
      [4, E],
    ]),
    gates: [{ parts: [1], holes: [0], aspect: [0.6, 1.1] }],
  },
  {
    name: "pause",
    mask: draw((p) => {
      for (const x of [4, 5, 6, 7, N - 7, N - 6, N - 5, N - 4]) line(p, x, 1.5, x, E);
    }),
    gates: [{ parts: [2], holes: [0], aspect: [0.4, 1.1] }],
  },
];

/** Grow a mask by one cell in the 4 directions (tolerance for stroke weight and position). */
export function thicken(m: Mask): Mask {
  const out = new Uint8Array(m);
  for (let y = 0; y < N; y++)
    for (let x = 0; x < N; x++)
      if (m[y * N + x])
        for (const [dx, dy] of [
          [1, 0],
          [-1, 0],
          [0, 1],
          [0, -1],
        ] as const) {
          const xx = x + dx;
          const yy = y + dy;
          if (xx >= 0 && yy >= 0 && xx < N && yy < N) out[yy * N + xx] = 1;
        }
  return out;
}

export const THICK = TEMPLATES.map((t) => ({ ...t, mask: thicken(t.mask) }));
export const CONTENT_THICK = CONTENT_TEMPLATES.map((t) => ({ ...t, mask: thicken(t.mask) }));
