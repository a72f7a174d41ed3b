import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import type { Candidate } from "./row.js";
import type { TextLine } from "./types.js";

/**
 * Links inside body text. UIKit draws a link in a `UITextView` — an `NSAttributedString.Key.link` run or
 * a data detector's result (dates, phone numbers, addresses, URLs) — in the view's `linkTextAttributes`:
 * by default the tint colour (systemBlue) and, in many apps and in Messages-style bubbles, an underline
 * (Apple: UITextView.linkTextAttributes, UITextView.dataDetectorTypes; NSUnderlineStyle). The run sits
 * inside a line of label-coloured text that OCR reads as one line, yet it is its own tap target. A run
 * is found from the pixels of the line's box — ink of a hue far from the line's main ink, or a thin
 * rule under part of the line — and the line's text is cut there by where the recogniser read each
 * space (`TextLine.spaces`, from the CTC time steps), characters spread over their word's extent.
 * The line stays whole for reading; each run adds a `link` row with its own box.
 */

/** A tinted ink pixel: this far (RGB distance) from the line's main ink, with this much chroma. */
const TINT_DISTANCE = 80;
const TINT_CHROMA = 60;
/** Below this chroma the main ink is a label colour (black, white or a grey): only then is a tint a link. */
const NEUTRAL_CHROMA = 40;
/** A run narrower than this many line heights is a glyph or an inline icon, not a link's text. */
const MIN_RUN_HEIGHTS = 1.2;
/** An underline's longest rule, in line heights of ink it may spill past the text on either side. */
const UNDERLINE_SPILL = 0.4;

interface Run {
  x0: number;
  x1: number;
}

interface PxBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const chroma = (c: readonly number[]): number => Math.max(...c) - Math.min(...c);
// Pixels are read in place (byte offset `o` of an RGB image): these passes visit every pixel of every
// text line, and a colour array per pixel was ~45 MB of peak RSS a peek in garbage.
/** RGB distance of the pixel at byte offset `o` from colour `c`. */
const distAt = (d: Uint8Array, o: number, c: readonly number[]): number =>
  Math.hypot((d[o] ?? 0) - (c[0] ?? 0), (d[o + 1] ?? 0) - (c[1] ?? 0), (d[o + 2] ?? 0) - (c[2] ?? 0));
/** Chroma (largest channel minus smallest) of the pixel at byte offset `o`. */
const chromaAt = (d: Uint8Array, o: number): number => {
  const r = d[o] ?? 0;
  const g = d[o + 1] ?? 0;
  const b = d[o + 2] ?? 0;
  return Math.max(r, g, b) - Math.min(r, g, b);
};
/** The value at index ⌊n/2⌋ of the `n` counted values sorted, from their 256-bin histogram. */
const histMedian = (hist: Uint32Array, n: number): number => {
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += hist[v] ?? 0;
    if (seen > Math.floor(n / 2)) return v;
  }
  return 255;
};
const median = (v: number[]): number => {
  v.sort((a, b) => a - b);
  return v[Math.floor(v.length / 2)] ?? 0;
};

/** The background of a line: the median colour of the rows just above and below its box. */
function background(img: RgbImage, b: PxBox): [number, number, number] {
  const m = Math.max(1, Math.round(0.15 * (b.y1 - b.y0)));
  const rows = [Math.max(0, b.y0 - m), Math.min(img.height - 1, b.y1 + m)];
  const ch: number[][] = [[], [], []];
  for (const y of rows)
    for (let x = b.x0; x < b.x1; x++) {
      const o = (y * img.width + x) * 3;
      for (let k = 0; k < 3; k++) ch[k]?.push(img.data[o + k] ?? 0);
    }
  return [median(ch[0] ?? []), median(ch[1] ?? []), median(ch[2] ?? [])];
}

/**
 * Column runs of tinted ink: ink (strongly off the background) whose colour is far from the line's
 * main ink and saturated, where the main ink is a neutral label colour. Blank columns (word spaces)
 * neither end nor start a run; a column of untinted ink ends it.
 */
export function tintedRuns(img: RgbImage, b: PxBox, bg: readonly number[]): Run[] {
  const d = img.data;
  const W = img.width;
  let maxDiff = 0;
  for (let y = b.y0; y < b.y1; y++)
    for (let x = b.x0; x < b.x1; x++) maxDiff = Math.max(maxDiff, distAt(d, (y * W + x) * 3, bg));
  if (maxDiff < 60) return [];
  // Core ink: at least half the line's contrast, so anti-aliased edges (blends with the background) stay out.
  const core = 0.5 * maxDiff;
  const hist = [new Uint32Array(256), new Uint32Array(256), new Uint32Array(256)] as const;
  let n = 0;
  for (let y = b.y0; y < b.y1; y++)
    for (let x = b.x0; x < b.x1; x++) {
      const o = (y * W + x) * 3;
      if (distAt(d, o, bg) < core) continue;
      n++;
      const r = d[o] ?? 0;
      const g = d[o + 1] ?? 0;
      const bl = d[o + 2] ?? 0;
      hist[0][r] = (hist[0][r] ?? 0) + 1;
      hist[1][g] = (hist[1][g] ?? 0) + 1;
      hist[2][bl] = (hist[2][bl] ?? 0) + 1;
    }
  if (n < 10) return [];
  const ink = hist.map((h) => histMedian(h, n));
  if (chroma(ink) > NEUTRAL_CHROMA) return [];
  const w = b.x1 - b.x0;
  const tinted = new Int32Array(w);
  const plain = new Int32Array(w);
  for (let y = b.y0; y < b.y1; y++)
    for (let x = b.x0; x < b.x1; x++) {
      const o = (y * W + x) * 3;
      if (distAt(d, o, bg) < core) continue;
      const t = distAt(d, o, ink) >= TINT_DISTANCE && chromaAt(d, o) >= TINT_CHROMA;
      if (t) tinted[x - b.x0] = (tinted[x - b.x0] ?? 0) + 1;
      else plain[x - b.x0] = (plain[x - b.x0] ?? 0) + 1;
    }
  const runs: Run[] = [];
  let start = -1;
  let last = -1;
  for (let i = 0; i <= w; i++) {
    const t = tinted[i] ?? 0;
    const p = plain[i] ?? 0;
    if (i < w && t > 0 && t >= p) {
      if (start < 0) start = i;
      last = i;
    } else if (i === w || p > t) {
      if (start >= 0) runs.push({ x0: b.x0 + start, x1: b.x0 + last + 1 });
      start = -1;
    }
  }
  return runs;
}

/**
 * Underlined runs: a rule in the lower part of the line (or just under it), ink on every column of a
 * stretch at least `MIN_RUN_HEIGHTS` line heights long and at most a few pixels thick, that lies under
 * the text (a separator or a field's underline runs on past it).
 */
export function underlinedRuns(img: RgbImage, b: PxBox, bg: readonly number[]): Run[] {
  const h = b.y1 - b.y0;
  const top = Math.round(b.y0 + 0.65 * h);
  const bottom = Math.min(img.height, Math.round(b.y1 + 0.35 * h));
  const spill = Math.round(UNDERLINE_SPILL * h);
  const left = Math.max(0, b.x0 - 2 * spill);
  const right = Math.min(img.width, b.x1 + 2 * spill);
  const inked = (x: number, y: number) => distAt(img.data, (y * img.width + x) * 3, bg) >= 48;
  const found: (Run & { y: number })[] = [];
  for (let y = top; y < bottom; y++) {
    // Inked stretches of the row, joined across short breaks: an underline is drawn skipping the
    // descenders that cross it (\`g\`, \`j\`, \`q\`), leaving gaps of a stroke's width around each.
    const parts: (Run & { long: number })[] = [];
    let start = -1;
    for (let x = left; x <= right; x++) {
      if (x < right && inked(x, y)) {
        if (start < 0) start = x;
        continue;
      }
      if (start >= 0) {
        const long = x - start >= 0.6 * h ? x - start : 0;
        const prev = parts[parts.length - 1];
        if (prev && start - prev.x1 <= 0.35 * h) {
          prev.x1 = x;
          prev.long += long;
        } else parts.push({ x0: start, x1: x, long });
      }
      start = -1;
    }
    // Mostly long strokes: the bottoms of round letters on the baseline are short stretches close together.
    for (const r of parts)
      if (r.x1 - r.x0 >= MIN_RUN_HEIGHTS * h && r.long >= 0.6 * (r.x1 - r.x0))
        found.push({ x0: r.x0, x1: r.x1, y });
  }
  const runs: Run[] = [];
  for (const r of found) {
    // Thin: the rows an eighth of the line above and below are not inked along most of the rule.
    const d = Math.max(2, Math.round(0.12 * h));
    const thin = [r.y - d, r.y + d].every((y) => {
      if (y < 0 || y >= img.height) return true;
      let n = 0;
      for (let x = r.x0; x < r.x1; x++) if (inked(x, y)) n++;
      return n < 0.6 * (r.x1 - r.x0);
    });
    const under = r.x0 >= b.x0 - spill && r.x1 <= b.x1 + spill;
    if (thin && under && !runs.some((q) => q.x0 < r.x1 && r.x0 < q.x1)) runs.push({ x0: r.x0, x1: r.x1 });
  }
  return runs;
}

/** Each character's x extent (image fractions): words between the read spaces, characters spread evenly. */
export function charExtents(text: string, box: FracBox, spaces?: readonly number[]): [number, number][] {
  const words = text.split(" ");
  const known = spaces && spaces.length === words.length - 1;
  const out: [number, number][] = [];
  let from = box[0];
  let index = 0;
  words.forEach((word, k) => {
    // Without read spaces, the line's width is shared by character count (SF Pro is proportional, so
    // this is a fallback only).
    const to = known
      ? (spaces[k] ?? box[2])
      : box[0] + ((box[2] - box[0]) * (index + word.length)) / text.length;
    const step = word.length > 0 ? (to - from) / word.length : 0;
    for (let i = 0; i < word.length; i++) out.push([from + i * step, from + (i + 1) * step]);
    index += word.length;
    if (k < words.length - 1) {
      const next = known ? (spaces[k] ?? to) : box[0] + ((box[2] - box[0]) * (index + 1)) / text.length;
      out.push([to, next]);
      from = next;
      index += 1;
    }
  });
  return out;
}

/** Punctuation a link never ends with in running text (the sentence's own). */
const TRAILING = /[\s.,;:!?)\]」。，、]+$/u;
const LEADING = /^[\s(["“「]+/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/gu;

/**
 * `link` rows for the tinted or underlined runs inside `lines` (read on `screen`). A run that covers
 * the whole line adds nothing (the line's own row is the target), nor does one holding fewer than two
 * letters or digits.
 */
export function linksInText(screen: RgbImage, lines: readonly TextLine[]): Candidate[] {
  const out: Candidate[] = [];
  for (const line of lines) {
    const text = line.text.trim();
    if (text !== line.text || (text.match(LETTER_OR_DIGIT)?.length ?? 0) < 4) continue;
    const [fx0, fy0, fx1, fy1] = line.box;
    const b: PxBox = {
      x0: Math.max(0, Math.floor(fx0 * screen.width)),
      y0: Math.max(0, Math.floor(fy0 * screen.height)),
      x1: Math.min(screen.width, Math.ceil(fx1 * screen.width)),
      y1: Math.min(screen.height, Math.ceil(fy1 * screen.height)),
    };
    const h = b.y1 - b.y0;
    if (h < 6 || b.x1 - b.x0 < 3 * h) continue;
    const bg = background(screen, b);
    const runs = [...tintedRuns(screen, b, bg), ...underlinedRuns(screen, b, bg)]
      .filter((r) => r.x1 - r.x0 >= MIN_RUN_HEIGHTS * h)
      .sort((p, q) => p.x0 - q.x0);
    if (runs.length === 0) continue;
    const chars = charExtents(text, line.box, line.spaces);
    const taken: Run[] = [];
    for (const r of runs) {
      if (taken.some((q) => q.x0 < r.x1 && r.x0 < q.x1)) continue;
      taken.push(r);
      const rx0 = r.x0 / screen.width;
      const rx1 = r.x1 / screen.width;
      // The characters whose middle lies on the run.
      let first = -1;
      let last = -1;
      chars.forEach(([a, z], i) => {
        const mid = (a + z) / 2;
        if (mid >= rx0 && mid <= rx1) {
          if (first < 0) first = i;
          last = i;
        }
      });
      if (first < 0) continue;
      const label = text
        .slice(first, last + 1)
        .replace(TRAILING, "")
        .replace(LEADING, "");
      if ((label.match(LETTER_OR_DIGIT)?.length ?? 0) < 2) continue;
      // The whole line is one link: its own row is the target already.
      if (label.length >= text.replace(TRAILING, "").replace(LEADING, "").length) continue;
      out.push({ kind: "link", label, box: [rx0, fy0, rx1, fy1], conf: line.conf });
    }
  }
  return out;
}

/** `rows` (the listing after `applyScreenSemantics`) and a `link` row per run in the text lines still listed. */
export function withLinks(screen: RgbImage, lines: readonly TextLine[], rows: Candidate[]): Candidate[] {
  const listed = lines.filter((t) =>
    rows.some(
      (r) =>
        r.kind === "text" &&
        r.label === t.text.trim() &&
        r.box.every((v, k) => Math.abs(v - (t.box[k] ?? 0)) < 1e-6),
    ),
  );
  return [...rows, ...linksInText(screen, listed)];
}
