import { appIcon } from "../../sim/phone/icons.js";
import type { AppId } from "../../sim/phone/state.js";
import { circle, line, rect } from "../../sim/phone/svg.js";
import type { Random } from "../../util/random.js";
import { chance, hsl, pick, uniform, vivid } from "./pick.js";
import { symbolSvg } from "./symbols.js";

/**
 * Icons for synthetic layouts: the phone's own app icons, random "app-like" icons (coloured rounded
 * square + pictogram) and bare line glyphs (toolbar / tab-bar style), so the detector learns the idea
 * of an icon rather than our 24 pictures.
 */

const APPS: readonly AppId[] = [
  "clock",
  "messages",
  "settings",
  "weather",
  "calendar",
  "photos",
  "camera",
  "mail",
  "notes",
  "reminders",
  "maps",
  "health",
  "wallet",
  "books",
  "appstore",
  "files",
  "calculator",
  "phone",
  "safari",
  "music",
  "contacts",
  "translate",
  "stocks",
  "compass",
];

type Glyph = (s: number, c: string, w: number) => string;

/** Line glyphs drawn in a 0..s box with stroke colour c and stroke width w. */
const GLYPHS: readonly Glyph[] = [
  // magnifier
  (s, c, w) =>
    circle(s * 0.42, s * 0.42, s * 0.28, "none", `stroke="${c}" stroke-width="${w}"`) +
    line(s * 0.62, s * 0.62, s * 0.9, s * 0.9, c, w),
  // plus
  (s, c, w) =>
    line(s * 0.5, s * 0.12, s * 0.5, s * 0.88, c, w) + line(s * 0.12, s * 0.5, s * 0.88, s * 0.5, c, w),
  // heart
  (s, c, w) =>
    `<path d="M${s / 2} ${s * 0.85} C${s * 0.05} ${s * 0.55} ${s * 0.1} ${s * 0.1} ${s / 2} ${s * 0.3} C${s * 0.9} ${s * 0.1} ${s * 0.95} ${s * 0.55} ${s / 2} ${s * 0.85} Z" fill="none" stroke="${c}" stroke-width="${w}"/>`,
  // star
  (s, c) => {
    const pts = Array.from({ length: 10 }, (_, i) => {
      const r = i % 2 ? s * 0.2 : s * 0.46;
      const a = (Math.PI / 5) * i - Math.PI / 2;
      return `${s / 2 + r * Math.cos(a)} ${s / 2 + r * Math.sin(a)}`;
    });
    return `<path d="M${pts.join(" L")} Z" fill="${c}"/>`;
  },
  // share: box with up arrow
  (s, c, w) =>
    `<path d="M${s * 0.3} ${s * 0.4} L${s * 0.18} ${s * 0.4} L${s * 0.18} ${s * 0.92} L${s * 0.82} ${s * 0.92} L${s * 0.82} ${s * 0.4} L${s * 0.7} ${s * 0.4}" fill="none" stroke="${c}" stroke-width="${w}"/>` +
    line(s / 2, s * 0.08, s / 2, s * 0.62, c, w) +
    line(s * 0.32, s * 0.25, s / 2, s * 0.08, c, w) +
    line(s * 0.68, s * 0.25, s / 2, s * 0.08, c, w),
  // bell
  (s, c) =>
    `<path d="M${s * 0.2} ${s * 0.75} L${s * 0.25} ${s * 0.4} Q${s / 2} ${s * 0.02} ${s * 0.75} ${s * 0.4} L${s * 0.8} ${s * 0.75} Z" fill="${c}"/>` +
    circle(s / 2, s * 0.85, s * 0.09, c),
  // trash
  (s, c, w) =>
    line(s * 0.15, s * 0.22, s * 0.85, s * 0.22, c, w) +
    rect(
      { x: s * 0.25, y: s * 0.3, w: s * 0.5, h: s * 0.6 },
      "none",
      s * 0.06,
      `stroke="${c}" stroke-width="${w}"`,
    ) +
    rect({ x: s * 0.38, y: s * 0.08, w: s * 0.24, h: s * 0.12 }, c, 1),
  // person
  (s, c) =>
    circle(s / 2, s * 0.32, s * 0.2, c) +
    `<path d="M${s * 0.12} ${s * 0.95} Q${s / 2} ${s * 0.4} ${s * 0.88} ${s * 0.95} Z" fill="${c}"/>`,
  // house
  (s, c) =>
    `<path d="M${s / 2} ${s * 0.08} L${s * 0.92} ${s * 0.48} L${s * 0.8} ${s * 0.48} L${s * 0.8} ${s * 0.92} L${s * 0.2} ${s * 0.92} L${s * 0.2} ${s * 0.48} L${s * 0.08} ${s * 0.48} Z" fill="${c}"/>`,
  // ellipsis
  (s, c) => [0.2, 0.5, 0.8].map((f) => circle(s * f, s / 2, s * 0.09, c)).join(""),
  // camera
  (s, c, w) =>
    rect(
      { x: s * 0.08, y: s * 0.28, w: s * 0.84, h: s * 0.58 },
      "none",
      s * 0.1,
      `stroke="${c}" stroke-width="${w}"`,
    ) +
    circle(s / 2, s * 0.57, s * 0.16, "none", `stroke="${c}" stroke-width="${w}"`) +
    rect({ x: s * 0.34, y: s * 0.14, w: s * 0.32, h: s * 0.14 }, c, 1),
  // grid
  (s, c) =>
    [0, 1, 2, 3]
      .map((i) =>
        rect(
          {
            x: s * (0.1 + (i % 2) * 0.45),
            y: s * (0.1 + Math.floor(i / 2) * 0.45),
            w: s * 0.35,
            h: s * 0.35,
          },
          c,
          s * 0.06,
        ),
      )
      .join(""),
  // list
  (s, c, w) =>
    [0.25, 0.5, 0.75]
      .map((f) => circle(s * 0.14, s * f, s * 0.07, c) + line(s * 0.32, s * f, s * 0.9, s * f, c, w))
      .join(""),
  // gear-ish: ring with spokes
  (s, c, w) =>
    Array.from({ length: 6 }, (_, i) => {
      const a = (Math.PI / 3) * i;
      return line(
        s / 2 + Math.cos(a) * s * 0.28,
        s / 2 + Math.sin(a) * s * 0.28,
        s / 2 + Math.cos(a) * s * 0.46,
        s / 2 + Math.sin(a) * s * 0.46,
        c,
        w * 1.4,
      );
    }).join("") + circle(s / 2, s / 2, s * 0.26, "none", `stroke="${c}" stroke-width="${w}"`),
  // paper plane / send
  (s, c) =>
    `<path d="M${s * 0.06} ${s * 0.45} L${s * 0.94} ${s * 0.08} L${s * 0.6} ${s * 0.94} L${s * 0.45} ${s * 0.58} Z" fill="${c}"/>`,
  // microphone
  (s, c, w) =>
    rect({ x: s * 0.36, y: s * 0.06, w: s * 0.28, h: s * 0.52 }, c, s * 0.14) +
    `<path d="M${s * 0.22} ${s * 0.45} Q${s / 2} ${s * 0.9} ${s * 0.78} ${s * 0.45}" fill="none" stroke="${c}" stroke-width="${w}"/>` +
    line(s / 2, s * 0.72, s / 2, s * 0.94, c, w),
];

/**
 * A bare glyph of `size` at (x, y) in colour `color`: one of the heavier simulator-style glyphs above
 * or, two times in three, a thin iOS-style symbol (symbols.ts) with cut-outs in `knock`.
 */
export function lineGlyph(
  rng: Random,
  x: number,
  y: number,
  size: number,
  color: string,
  knock = "#ffffff",
): string {
  if (chance(rng, 0.67)) return symbolSvg(rng, x, y, size, color, knock);
  const g = pick(rng, GLYPHS);
  const w = Math.max(1.2, size * uniform(rng, 0.07, 0.12));
  return `<g transform="translate(${x.toFixed(2)} ${y.toFixed(2)})">${g(size, color, w)}</g>`;
}

/** An app-style icon: one of the phone's own, or a random coloured tile with a glyph or letter. */
export function tileIcon(
  rng: Random,
  x: number,
  y: number,
  size: number,
  shape: "squircle" | "circle",
): string {
  if (shape === "squircle" && chance(rng, 0.4)) return appIcon(pick(rng, APPS), x, y, size);
  const bg = chance(rng, 0.15) ? hsl(0, 0, uniform(rng, 0.9, 1)) : vivid(rng);
  const fg = bg.startsWith("#f") || bg.startsWith("#e") ? vivid(rng) : "#ffffff";
  const tile =
    shape === "circle"
      ? circle(x + size / 2, y + size / 2, size / 2, bg)
      : rect({ x, y, w: size, h: size }, bg, size * uniform(rng, 0.18, 0.26));
  const inner = size * uniform(rng, 0.5, 0.66);
  const off = (size - inner) / 2;
  return tile + lineGlyph(rng, x + off, y + off, inner, fg, bg);
}
