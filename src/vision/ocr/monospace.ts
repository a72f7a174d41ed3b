/**
 * Monospaced lines: code in a script editor (Scriptable, Pythonista), a terminal, a JSON preview. In a
 * monospaced font every character, the space included, takes one fixed advance (the pitch: 0.6 em in
 * Menlo and SF Mono — Menlo is derived from DejaVu Sans Mono, whose advance is 1233/2048 em), so the
 * recogniser's character positions along such a line fall on a straight line against the character's
 * index, which proportional text (SF Pro: `i` 0.24 em, `m` 0.87 em) does not.
 *
 * Why it matters: a word space in code is a whole cell wide (≈ 0.6 em of advance, 0.7–0.8 em of blank
 * ink gap), as wide as the gap iOS leaves between two labels set side by side, so the gap splitter
 * (`split.ts`) cut code lines at every space (`let` | `url = …`). In a monospaced line only a gap of
 * several cells separates two labels.
 */

/** Characters a line needs before its pitch is trusted (short labels fit any pitch by chance). */
export const MONO_MIN_CHARS = 10;
/**
 * Largest RMS deviation of the characters' positions from the fitted grid, as a fraction of the pitch,
 * for a monospaced line. The positions are CTC time steps (first frame of each character; one step is
 * 8 recogniser columns, ~1/3 of a cell at the recogniser's 48 px line height), so even a perfect grid
 * scatters by about a third of a step.
 */
export const MONO_MAX_SPREAD = 0.2;

/** Spaces a fit may leave out: the recogniser puts a space beside a narrow glyph in its wide cell (`. com`). */
export const MONO_SPURIOUS_SPACES = 2;

/** Least-squares grid through `at` (cell `cells[i]` for position `i`): pitch and RMS deviation. */
function gridFit(at: readonly number[], cells: readonly number[]): { pitch: number; rms: number } {
  const n = at.length;
  let si = 0;
  let sx = 0;
  let sii = 0;
  let six = 0;
  at.forEach((x, k) => {
    const i = cells[k] ?? k;
    si += i;
    sx += x;
    sii += i * i;
    six += i * x;
  });
  const pitch = (n * six - si * sx) / (n * sii - si * si);
  const offset = (sx - pitch * si) / n;
  let sq = 0;
  at.forEach((x, k) => {
    sq += (x - offset - pitch * (cells[k] ?? k)) ** 2;
  });
  return { pitch, rms: Math.sqrt(sq / n) };
}

/**
 * The pitch (in the units of `at`) of a line whose characters were read at `at` (one per code unit of
 * `text`, in order), when they lie on a regular grid; undefined for proportional or short lines. Up to
 * `MONO_SPURIOUS_SPACES` spaces that the grid fits better without are taken as spurious.
 */
export function monospacePitch(text: string, at: readonly number[]): number | undefined {
  if (at.length < MONO_MIN_CHARS || at.length !== text.length) return undefined;
  const dropped = new Set<number>();
  const cellsWithout = (drop: ReadonlySet<number>) => {
    let cell = 0;
    return at.map((_, k) => (drop.has(k) ? cell : cell++));
  };
  const score = (drop: ReadonlySet<number>) => {
    const keep = at.filter((_, k) => !drop.has(k));
    const cells = cellsWithout(drop).filter((_, k) => !drop.has(k));
    const f = gridFit(keep, cells);
    return f.pitch > 0 ? f.rms / f.pitch : Number.POSITIVE_INFINITY;
  };
  let best = score(dropped);
  for (let round = 0; round < MONO_SPURIOUS_SPACES && best > MONO_MAX_SPREAD; round++) {
    let pick = -1;
    for (let k = 0; k < text.length; k++) {
      if (text[k] !== " " || dropped.has(k)) continue;
      const s = score(new Set([...dropped, k]));
      if (s < best) {
        best = s;
        pick = k;
      }
    }
    if (pick < 0) break;
    dropped.add(pick);
  }
  if (best > MONO_MAX_SPREAD) return undefined;
  const keep = at.filter((_, k) => !dropped.has(k));
  return gridFit(
    keep,
    cellsWithout(dropped).filter((_, k) => !dropped.has(k)),
  ).pitch;
}
