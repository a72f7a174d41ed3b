import type { Random } from "../../util/random.js";
import { pick, uniform } from "./pick.js";

/**
 * Thin-outline and filled UI symbols in the style of iOS system symbols (SF Symbols), drawn here from
 * our own SVG paths — no Apple artwork. Real iOS draws icon-only buttons (+, ?, ♡, ⊗, ⌫, reorder
 * handles, cloud download…) with 1.2–2.5 pt strokes at 17–28 pt; the detector first trained only on
 * the simulator's heavier glyphs and missed them. Every symbol draws into a 0..s box.
 */

/** Draw a symbol of size `s`: ink `c`, stroke width `w`, `knock` = colour of cut-outs (the background). */
export type Symbol = (s: number, c: string, w: number, knock: string) => string;

const f = (v: number): string => (Math.round(v * 100) / 100).toString();

/** A stroked path given in 0–1 units of the box. */
function stroke(s: number, c: string, w: number, d: string): string {
  return `<path d="${scale(d, s)}" fill="none" stroke="${c}" stroke-width="${f(w)}" stroke-linecap="round" stroke-linejoin="round"/>`;
}

/** A filled path given in 0–1 units of the box. */
function fill(s: number, c: string, d: string): string {
  return `<path d="${scale(d, s)}" fill="${c}"/>`;
}

/** Multiply every number in a path of 0–1 units by `s` (arc flags and radii written ≥ 2 are kept). */
function scale(d: string, s: number): string {
  return d.replace(/(-?\d*\.\d+|-?\d+)(!?)/g, (_, num: string, keep: string) =>
    keep ? num : f(Number(num) * s),
  );
}

const ring = (s: number, c: string, w: number, r = 0.44): string =>
  `<circle cx="${f(s / 2)}" cy="${f(s / 2)}" r="${f(s * r)}" fill="none" stroke="${c}" stroke-width="${f(w)}"/>`;
const disc = (s: number, c: string, r = 0.46, cx = 0.5, cy = 0.5): string =>
  `<circle cx="${f(s * cx)}" cy="${f(s * cy)}" r="${f(s * r)}" fill="${c}"/>`;

const X = "M.3 .3 L.7 .7 M.7 .3 L.3 .7";
const PLUS = "M.5 .2 L.5 .8 M.2 .5 L.8 .5";
const CHECK = "M.18 .52 L.42 .76 L.84 .26";
const HEART =
  "M.5 .86 C.2 .64 .06 .48 .06 .32 C.06 .18 .17 .1 .29 .1 C.39 .1 .46 .16 .5 .24 C.54 .16 .61 .1 .71 .1 C.83 .1 .94 .18 .94 .32 C.94 .48 .8 .64 .5 .86 Z";
const STAR = Array.from({ length: 10 }, (_, i) => {
  const r = i % 2 ? 0.2 : 0.47;
  const a = (Math.PI / 5) * i - Math.PI / 2;
  return `${i ? "L" : "M"}${(0.5 + r * Math.cos(a)).toFixed(3)} ${(0.53 + r * Math.sin(a)).toFixed(3)}`;
}).join(" ");
const BELL = "M.2 .74 L.26 .66 L.26 .42 C.26 .26 .37 .14 .5 .14 C.63 .14 .74 .26 .74 .42 L.74 .66 L.8 .74 Z";
const PHONE =
  "M.22 .1 L.36 .1 L.44 .3 L.34 .4 C.4 .52 .48 .6 .6 .66 L.7 .56 L.9 .64 L.9 .78 C.9 .86 .84 .92 .76 .92 C.4 .9 .1 .6 .08 .24 C.08 .16 .14 .1 .22 .1 Z";
const PLANE = "M.08 .46 L.92 .1 L.62 .92 L.48 .56 Z M.48 .56 L.92 .1";
const CLOUD =
  "M.26 .74 C.12 .74 .06 .64 .06 .55 C.06 .45 .14 .37 .25 .37 C.28 .24 .38 .16 .5 .16 C.64 .16 .74 .26 .76 .38 C.87 .38 .94 .47 .94 .56 C.94 .66 .86 .74 .76 .74 Z";
const PERSON_BODY = "M.14 .92 C.14 .7 .3 .6 .5 .6 C.7 .6 .86 .7 .86 .92 Z";
const GEAR = Array.from({ length: 16 }, (_, i) => {
  const r = i % 2 ? 0.36 : 0.46;
  const a = (Math.PI / 8) * i;
  return `${i ? "L" : "M"}${(0.5 + r * Math.cos(a)).toFixed(3)} ${(0.5 + r * Math.sin(a)).toFixed(3)}`;
}).join(" ");
const PENCIL = "M.16 .84 L.2 .66 L.7 .16 L.84 .3 L.34 .8 Z M.62 .24 L.76 .38";
const TRASH =
  "M.14 .24 L.86 .24 M.38 .24 L.38 .12 L.62 .12 L.62 .24 M.22 .24 L.26 .9 L.74 .9 L.78 .24 M.42 .4 L.42 .76 M.58 .4 L.58 .76";
const SHARE = "M.34 .38 L.2 .38 L.2 .92 L.8 .92 L.8 .38 L.66 .38 M.5 .06 L.5 .62 M.34 .2 L.5 .06 L.66 .2";
const TRAY_DOWN = "M.34 .38 L.2 .38 L.2 .92 L.8 .92 L.8 .38 L.66 .38 M.5 .06 L.5 .64 M.34 .5 L.5 .64 L.66 .5";
const CAMERA =
  "M.08 .32 L.3 .32 L.36 .2 L.64 .2 L.7 .32 L.92 .32 L.92 .84 L.08 .84 Z M.5 .42 A.15 .15 0! 1! 1! .5 .72 A.15 .15 0! 1! 1! .5 .42";
const MIC = "M.38 .1 L.62 .1 L.62 .5 C.62 .6 .38 .6 .38 .5 Z M.24 .44 C.24 .8 .76 .8 .76 .44 M.5 .72 L.5 .92";
const BACKSPACE = "M.3 .2 L.92 .2 L.92 .8 L.3 .8 L.06 .5 Z M.46 .36 L.74 .64 M.74 .36 L.46 .64";
const ENVELOPE = "M.06 .22 L.94 .22 L.94 .8 L.06 .8 Z M.06 .24 L.5 .56 L.94 .24";
const LOCK = "M.2 .46 L.8 .46 L.8 .92 L.2 .92 Z M.3 .46 L.3 .3 C.3 .06 .7 .06 .7 .3 L.7 .46";
const HOUSE = "M.1 .5 L.5 .12 L.9 .5 M.2 .4 L.2 .9 L.4 .9 L.4 .64 L.6 .64 L.6 .9 L.8 .9 L.8 .4";
const FOLDER = "M.06 .22 L.38 .22 L.46 .32 L.94 .32 L.94 .84 L.06 .84 Z";
const BOOKMARK = "M.24 .08 L.76 .08 L.76 .92 L.5 .7 L.24 .92 Z";
const CALENDAR = "M.08 .18 L.92 .18 L.92 .9 L.08 .9 Z M.08 .36 L.92 .36 M.3 .08 L.3 .26 M.7 .08 L.7 .26";
const PLAY = "M.24 .1 L.86 .5 L.24 .9 Z";
const PAUSE = "M.22 .12 L.4 .12 L.4 .88 L.22 .88 Z M.6 .12 L.78 .12 L.78 .88 L.6 .88 Z";
const FORWARD = "M.06 .2 L.48 .5 L.06 .8 Z M.5 .2 L.94 .5 L.5 .8 Z";
const BACKWARD = "M.94 .2 L.52 .5 L.94 .8 Z M.5 .2 L.06 .5 L.5 .8 Z";
const LOCATION = "M.9 .1 L.1 .46 L.46 .54 L.54 .9 Z";
const LINK =
  "M.42 .6 L.6 .42 M.34 .5 L.2 .64 C.1 .74 .26 .9 .36 .8 L.5 .66 M.5 .34 L.64 .2 C.74 .1 .9 .26 .8 .36 L.66 .5";
const FILTER =
  "M.08 .24 L.92 .24 M.08 .5 L.92 .5 M.08 .76 L.92 .76 M.66 .16 L.66 .32 M.32 .42 L.32 .58 M.56 .68 L.56 .84";
const GLOBE = "M.5 .06 C.2 .3 .2 .7 .5 .94 C.8 .7 .8 .3 .5 .06 M.06 .5 L.94 .5 M.5 .06 L.5 .94";
const PHOTO = "M.06 .16 L.94 .16 L.94 .84 L.06 .84 Z M.06 .74 L.36 .46 L.6 .7 L.72 .58 L.94 .76";
const BOLT = "M.58 .04 L.2 .56 L.48 .56 L.42 .96 L.8 .42 L.52 .42 Z";
const FLAG = "M.2 .94 L.2 .08 M.2 .1 C.4 .0 .6 .24 .84 .12 L.84 .56 C.6 .68 .4 .44 .2 .54";
const ARROW_CW = "M.82 .5 A.32 .32 0! 1! 1! .64 .21 M.64 .06 L.64 .22 L.8 .22";
const DOC = "M.2 .06 L.6 .06 L.82 .28 L.82 .94 L.2 .94 Z M.6 .06 L.6 .28 L.82 .28";
const CART = "M.04 .12 L.18 .12 L.3 .66 L.82 .66 L.92 .28 L.22 .28";
const QUESTION = "M.36 .38 C.36 .24 .44 .2 .5 .2 C.58 .2 .66 .26 .66 .36 C.66 .5 .5 .5 .5 .62";
const SPEAKER =
  "M.08 .36 L.28 .36 L.52 .14 L.52 .86 L.28 .64 L.08 .64 Z M.66 .34 C.74 .42 .74 .58 .66 .66 M.78 .22 C.94 .38 .94 .62 .78 .78";

/** The symbol table: outline and filled variants of what real iOS toolbars, lists and bars show. */
export const SYMBOLS: Readonly<Record<string, Symbol>> = {
  plus: (s, c, w) => stroke(s, c, w, PLUS),
  minus: (s, c, w) => stroke(s, c, w, "M.2 .5 L.8 .5"),
  xmark: (s, c, w) => stroke(s, c, w, X),
  "xmark.circle.fill": (s, c, w, k) =>
    disc(s, c) + stroke(s, k, w * 1.1, "M.35 .35 L.65 .65 M.65 .35 L.35 .65"),
  "xmark.circle": (s, c, w) => ring(s, c, w) + stroke(s, c, w, "M.35 .35 L.65 .65 M.65 .35 L.35 .65"),
  "plus.circle": (s, c, w) => ring(s, c, w) + stroke(s, c, w, "M.5 .28 L.5 .72 M.28 .5 L.72 .5"),
  "plus.circle.fill": (s, c, w, k) => disc(s, c) + stroke(s, k, w * 1.2, "M.5 .28 L.5 .72 M.28 .5 L.72 .5"),
  "minus.circle.fill": (s, c, w, k) => disc(s, c) + stroke(s, k, w * 1.3, "M.28 .5 L.72 .5"),
  "chevron.left": (s, c, w) => stroke(s, c, w, "M.64 .14 L.3 .5 L.64 .86"),
  "chevron.right": (s, c, w) => stroke(s, c, w, "M.36 .14 L.7 .5 L.36 .86"),
  "chevron.down": (s, c, w) => stroke(s, c, w, "M.14 .34 L.5 .68 L.86 .34"),
  "chevron.up": (s, c, w) => stroke(s, c, w, "M.14 .66 L.5 .32 L.86 .66"),
  "arrow.left": (s, c, w) => stroke(s, c, w, "M.9 .5 L.12 .5 M.42 .2 L.12 .5 L.42 .8"),
  "arrow.right": (s, c, w) => stroke(s, c, w, "M.1 .5 L.88 .5 M.58 .2 L.88 .5 L.58 .8"),
  "arrow.up": (s, c, w) => stroke(s, c, w, "M.5 .9 L.5 .12 M.2 .42 L.5 .12 L.8 .42"),
  "arrow.down": (s, c, w) => stroke(s, c, w, "M.5 .1 L.5 .88 M.2 .58 L.5 .88 L.8 .58"),
  "arrow.up.circle.fill": (s, c, w, k) =>
    disc(s, c) + stroke(s, k, w * 1.2, "M.5 .74 L.5 .26 M.3 .46 L.5 .26 L.7 .46"),
  "arrow.clockwise": (s, c, w) => stroke(s, c, w, ARROW_CW),
  magnifyingglass: (s, c, w) =>
    ring(s, c, w, 0.3).replace(/cx="[^"]+" cy="[^"]+"/, `cx="${f(s * 0.42)}" cy="${f(s * 0.42)}"`) +
    stroke(s, c, w * 1.15, "M.64 .64 L.9 .9"),
  "square.and.arrow.up": (s, c, w) => stroke(s, c, w, SHARE),
  "square.and.arrow.down": (s, c, w) => stroke(s, c, w, TRAY_DOWN),
  "square.and.pencil": (s, c, w) =>
    stroke(
      s,
      c,
      w,
      "M.5 .14 L.14 .14 L.14 .86 L.86 .86 L.86 .5 M.44 .56 L.48 .44 L.82 .1 L.9 .18 L.56 .52 Z",
    ),
  ellipsis: (s, c) => [0.22, 0.5, 0.78].map((x) => disc(s, c, 0.065, x)).join(""),
  "ellipsis.circle": (s, c, w) => ring(s, c, w) + [0.3, 0.5, 0.7].map((x) => disc(s, c, 0.05, x)).join(""),
  heart: (s, c, w) => stroke(s, c, w, HEART),
  "heart.fill": (s, c) => fill(s, c, HEART),
  star: (s, c, w) => stroke(s, c, w, STAR),
  "star.fill": (s, c) => fill(s, c, STAR),
  bell: (s, c, w) => stroke(s, c, w, BELL) + stroke(s, c, w, "M.42 .84 C.44 .9 .56 .9 .58 .84"),
  "bell.fill": (s, c) => fill(s, c, BELL) + disc(s, c, 0.08, 0.5, 0.84),
  gear: (s, c, w) => stroke(s, c, w, `${GEAR} Z`) + ring(s, c, w, 0.14),
  trash: (s, c, w) => stroke(s, c, w, TRASH),
  pencil: (s, c, w) => stroke(s, c, w, PENCIL),
  "info.circle": (s, c, w) =>
    ring(s, c, w) + stroke(s, c, w * 1.2, "M.5 .46 L.5 .72") + disc(s, c, 0.05, 0.5, 0.31),
  "info.circle.fill": (s, c, w, k) =>
    disc(s, c) + stroke(s, k, w * 1.3, "M.5 .46 L.5 .72") + disc(s, k, 0.055, 0.5, 0.3),
  "questionmark.circle": (s, c, w) => ring(s, c, w) + stroke(s, c, w, QUESTION) + disc(s, c, 0.05, 0.5, 0.76),
  "questionmark.circle.fill": (s, c, w, k) =>
    disc(s, c) + stroke(s, k, w * 1.2, QUESTION) + disc(s, k, 0.055, 0.5, 0.76),
  person: (s, c, w) =>
    ring(s, c, w, 0.17).replace(/cy="[^"]+"/, `cy="${f(s * 0.3)}"`) + stroke(s, c, w, PERSON_BODY),
  "person.fill": (s, c) => disc(s, c, 0.19, 0.5, 0.3) + fill(s, c, PERSON_BODY),
  "person.crop.circle": (s, c, w) =>
    ring(s, c, w) +
    ring(s, c, w, 0.14).replace(/cy="[^"]+"/, `cy="${f(s * 0.38)}"`) +
    stroke(s, c, w, "M.22 .8 C.3 .62 .7 .62 .78 .8"),
  camera: (s, c, w) => stroke(s, c, w, CAMERA),
  "camera.fill": (s, c, _w, k) =>
    fill(s, c, "M.08 .32 L.3 .32 L.36 .2 L.64 .2 L.7 .32 L.92 .32 L.92 .84 L.08 .84 Z") +
    disc(s, k, 0.13, 0.5, 0.57),
  mic: (s, c, w) => stroke(s, c, w, MIC),
  "mic.fill": (s, c, w) =>
    fill(s, c, "M.38 .1 L.62 .1 L.62 .5 C.62 .6 .38 .6 .38 .5 Z") +
    stroke(s, c, w, "M.24 .44 C.24 .8 .76 .8 .76 .44 M.5 .72 L.5 .92"),
  phone: (s, c, w) => stroke(s, c, w, PHONE),
  "phone.fill": (s, c) => fill(s, c, PHONE),
  paperplane: (s, c, w) => stroke(s, c, w, PLANE),
  "paperplane.fill": (s, c) => fill(s, c, "M.08 .46 L.92 .1 L.62 .92 L.48 .56 Z"),
  "icloud.and.arrow.down": (s, c, w) =>
    stroke(s, c, w, CLOUD) + stroke(s, c, w, "M.5 .42 L.5 .92 M.36 .78 L.5 .92 L.64 .78"),
  "arrow.down.circle": (s, c, w) =>
    ring(s, c, w) + stroke(s, c, w, "M.5 .26 L.5 .74 M.3 .54 L.5 .74 L.7 .54"),
  cloud: (s, c, w) => stroke(s, c, w, CLOUD),
  "line.3.horizontal": (s, c, w) => stroke(s, c, w, "M.12 .3 L.88 .3 M.12 .5 L.88 .5 M.12 .7 L.88 .7"),
  "list.bullet": (s, c, w) =>
    [0.26, 0.5, 0.74].map((y) => disc(s, c, 0.06, 0.14, y)).join("") +
    stroke(s, c, w, "M.32 .26 L.9 .26 M.32 .5 L.9 .5 M.32 .74 L.9 .74"),
  checkmark: (s, c, w) => stroke(s, c, w * 1.2, CHECK),
  "checkmark.circle.fill": (s, c, w, k) => disc(s, c) + stroke(s, k, w * 1.2, "M.28 .52 L.44 .68 L.72 .36"),
  circle: (s, c, w) => ring(s, c, w),
  "play.fill": (s, c) => fill(s, c, PLAY),
  play: (s, c, w) => stroke(s, c, w, PLAY),
  "pause.fill": (s, c) => fill(s, c, PAUSE),
  "forward.fill": (s, c) => fill(s, c, FORWARD),
  "backward.fill": (s, c) => fill(s, c, BACKWARD),
  "delete.left": (s, c, w) => stroke(s, c, w, BACKSPACE),
  "delete.left.fill": (s, c, w, k) =>
    fill(s, c, "M.3 .2 L.92 .2 L.92 .8 L.3 .8 L.06 .5 Z") +
    stroke(s, k, w, "M.46 .36 L.74 .64 M.74 .36 L.46 .64"),
  house: (s, c, w) => stroke(s, c, w, HOUSE),
  "house.fill": (s, c) =>
    fill(s, c, "M.5 .1 L.92 .5 L.8 .5 L.8 .9 L.6 .9 L.6 .64 L.4 .64 L.4 .9 L.2 .9 L.2 .5 L.08 .5 Z"),
  folder: (s, c, w) => stroke(s, c, w, FOLDER),
  envelope: (s, c, w) => stroke(s, c, w, ENVELOPE),
  lock: (s, c, w) => stroke(s, c, w, LOCK),
  globe: (s, c, w) => ring(s, c, w) + stroke(s, c, w * 0.8, GLOBE),
  "location.fill": (s, c) => fill(s, c, LOCATION),
  bookmark: (s, c, w) => stroke(s, c, w, BOOKMARK),
  calendar: (s, c, w) => stroke(s, c, w, CALENDAR),
  clock: (s, c, w) => ring(s, c, w) + stroke(s, c, w, "M.5 .24 L.5 .5 L.68 .62"),
  photo: (s, c, w) => stroke(s, c, w, PHOTO) + disc(s, c, 0.07, 0.7, 0.36),
  link: (s, c, w) => stroke(s, c, w, LINK),
  "slider.horizontal.3": (s, c, w) => stroke(s, c, w, FILTER),
  "square.grid.2x2": (s, c, w) =>
    stroke(
      s,
      c,
      w,
      "M.1 .1 L.44 .1 L.44 .44 L.1 .44 Z M.56 .1 L.9 .1 L.9 .44 L.56 .44 Z M.1 .56 L.44 .56 L.44 .9 L.1 .9 Z M.56 .56 L.9 .56 L.9 .9 L.56 .9 Z",
    ),
  "bolt.fill": (s, c) => fill(s, c, BOLT),
  flag: (s, c, w) => stroke(s, c, w, FLAG),
  doc: (s, c, w) => stroke(s, c, w, DOC),
  cart: (s, c, w) => stroke(s, c, w, CART) + disc(s, c, 0.06, 0.36, 0.84) + disc(s, c, 0.06, 0.76, 0.84),
  "speaker.wave.2": (s, c, w) => stroke(s, c, w, SPEAKER),
  wifi: (s, c, w) =>
    stroke(s, c, w * 1.2, "M.12 .42 C.34 .18 .66 .18 .88 .42 M.26 .56 C.4 .42 .6 .42 .74 .56") +
    disc(s, c, 0.07, 0.5, 0.74),
  airplane: (s, c) =>
    fill(
      s,
      c,
      "M.46 .06 L.54 .06 L.56 .4 L.94 .6 L.94 .68 L.56 .58 L.56 .8 L.66 .88 L.66 .94 L.5 .9 L.34 .94 L.34 .88 L.44 .8 L.44 .58 L.06 .68 L.06 .6 L.44 .4 Z",
    ),
  "moon.fill": (s, c) =>
    fill(
      s,
      c,
      "M.6 .08 C.3 .12 .12 .36 .12 .56 C.12 .78 .3 .94 .54 .94 C.72 .94 .86 .84 .92 .7 C.58 .74 .4 .4 .6 .08 Z",
    ),
};

export const SYMBOL_NAMES: readonly string[] = Object.keys(SYMBOLS);

/**
 * One random symbol at (x, y), `size` points square, as real iOS draws them: a 1.2–2.5 pt stroke
 * (heavier when the symbol is large), ink `color`, cut-outs in `knock` (the background behind it).
 */
export function symbolSvg(
  rng: Random,
  x: number,
  y: number,
  size: number,
  color: string,
  knock: string,
  name: string = pick(rng, SYMBOL_NAMES),
): string {
  const draw = SYMBOLS[name] ?? SYMBOLS.plus;
  const w = Math.min(2.6, Math.max(1.1, uniform(rng, 1.2, 2.5) * Math.sqrt(size / 22)));
  return `<g transform="translate(${f(x)} ${f(y)})">${draw?.(size, color, w, knock) ?? ""}</g>`;
}
