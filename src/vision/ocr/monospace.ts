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

/**
 * The pitch (in the units of `at`) of a line whose characters were read at `at` (one per code unit of
 * the text, in order), when they lie on a regular grid; undefined for proportional or short lines.
 */
export function monospacePitch(at: readonly number[]): number | undefined {
  const n = at.length;
  if (n < MONO_MIN_CHARS) return undefined;
  let si = 0;
  let sx = 0;
  let sii = 0;
  let six = 0;
  at.forEach((x, i) => {
    si += i;
    sx += x;
    sii += i * i;
    six += i * x;
  });
  const pitch = (n * six - si * sx) / (n * sii - si * si);
  if (!(pitch > 0)) return undefined;
  const offset = (sx - pitch * si) / n;
  let sq = 0;
  at.forEach((x, i) => {
    sq += (x - offset - pitch * i) ** 2;
  });
  return Math.sqrt(sq / n) <= MONO_MAX_SPREAD * pitch ? pitch : undefined;
}
