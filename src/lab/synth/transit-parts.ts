import type { Rect } from "../../sim/phone/svg.js";
import { circle, line, rect } from "../../sim/phone/svg.js";
import type { Random } from "../../util/random.js";
import type { Env } from "./layout-env.js";
import { chance, pick, randInt, uniform } from "./pick.js";

/**
 * Pieces of transit-arrival screens (transit-screens.ts): route badges in real agencies' line colours,
 * arrival predictions, and a map with stop pins and the user's location dot. Every piece records the
 * text lines and tappable elements a person labelling the screen would write (`TransitTruth`, the
 * real-screen label format of src/lab/real/labels.ts, in points until the set writer scales them).
 */

export interface TruthLine {
  text: string;
  rect: Rect;
}
export interface TruthElement {
  kind: "button" | "row" | "field" | "segment" | "tab";
  label: string;
  iconOnly: boolean;
  state?: "on" | "off";
  rect: Rect;
}
export interface TransitTruth {
  text: TruthLine[];
  elements: TruthElement[];
  unlabelled: { rect: Rect; why: string }[];
}

export type TransitEnv = Env & { truth: TransitTruth };

/** Draw text (outlines) and record it as one truth line. Returns its box. */
export function line1(
  env: TransitEnv,
  label: string,
  x: number,
  baseline: number,
  size: number,
  fill: string,
  weight: "light" | "regular" | "semibold" = "regular",
  anchor: "start" | "middle" | "end" = "start",
): Rect {
  const s = env.scene.shape(label, x, baseline, { size, fill, weight, anchor });
  env.scene.draw(s.svg);
  env.truth.text.push({ text: label, rect: s.rect });
  return s.rect;
}

export function union(a: Rect, b: Rect): Rect {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, w: Math.max(a.x + a.w, b.x + b.w) - x, h: Math.max(a.y + a.h, b.y + b.h) - y };
}

/**
 * Public line colours (agency style guides): New York MTA subway bullets (1/2/3 red #EE352E, 4/5/6 green
 * #00933C, A/C/E blue #0039A6, B/D/F/M orange #FF6319, N/Q/R/W yellow #FCCC0A with black text, G
 * #6CBE45, J/Z brown #996633, L grey #A7A9AC, 7 purple #B933AD); London Underground (Central #DC241F,
 * Victoria #0098D4, Jubilee #A0A5A9, District #00782A, Circle #FFD300, Northern #000000, Piccadilly
 * #003688, Bakerloo #B36305); San Francisco Muni Metro (J orange, K/T, L purple, M green, N blue) and
 * Muni buses (rapid "R" routes red, others a dark slate).
 */
const LINES: readonly { names: readonly string[]; bg: string }[] = [
  { names: ["1", "2", "3"], bg: "#ee352e" },
  { names: ["4", "5", "6"], bg: "#00933c" },
  { names: ["A", "C", "E"], bg: "#0039a6" },
  { names: ["B", "D", "F", "M"], bg: "#ff6319" },
  { names: ["N", "Q", "R", "W"], bg: "#fccc0a" },
  { names: ["G"], bg: "#6cbe45" },
  { names: ["J", "Z"], bg: "#996633" },
  { names: ["L"], bg: "#a7a9ac" },
  { names: ["7"], bg: "#b933ad" },
  { names: ["KT", "T"], bg: "#bf2b45" },
  { names: ["N"], bg: "#005b95" },
  { names: ["J"], bg: "#faa634" },
  { names: ["M"], bg: "#008547" },
  { names: ["38R", "5R", "14R", "9R", "28R"], bg: "#c1272d" },
  { names: ["14", "22", "38", "49", "5", "7X", "14X", "30X", "33", "71A", "P3"], bg: "#384e5f" },
  { names: ["M4", "M5", "S7", "U2", "S3"], bg: "#bf0a30" },
  { names: ["Central"], bg: "#dc241f" },
  { names: ["Victoria"], bg: "#0098d4" },
  { names: ["Jubilee"], bg: "#a0a5a9" },
  { names: ["District"], bg: "#00782a" },
  { names: ["Circle"], bg: "#ffd300" },
  { names: ["Northern"], bg: "#000000" },
  { names: ["Piccadilly"], bg: "#003688" },
];
const ZH_LINES: readonly { names: readonly string[]; bg: string }[] = [
  { names: ["1号线", "1"], bg: "#e4002b" },
  { names: ["2号线", "2"], bg: "#97d700" },
  { names: ["3号线", "3"], bg: "#ffd100" },
  { names: ["4号线", "4"], bg: "#5f259f" },
  { names: ["10号线", "10"], bg: "#c6a8d4" },
  { names: ["49路", "71路", "127路", "内环"], bg: "#00629b" },
];

/**
 * The badge's ink: white, as agencies print on their line colours, except on the light yellows (MTA
 * N/Q/R/W, TfL Circle, Shanghai lines 2 and 3), printed black: relative luminance (WCAG 2.x) above 0.5.
 */
export function badgeInk(bg: string): string {
  const c = [1, 3, 5].map((i) => {
    const v = Number.parseInt(bg.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  const lum = 0.2126 * (c[0] ?? 0) + 0.7152 * (c[1] ?? 0) + 0.0722 * (c[2] ?? 0);
  return lum > 0.5 ? "#000000" : "#ffffff";
}

export interface Route {
  name: string;
  bg: string;
}

export function randomRoute(rng: Random, locale: "en" | "zh"): Route {
  const l = pick(rng, locale === "zh" && chance(rng, 0.7) ? ZH_LINES : LINES);
  return { name: pick(rng, l.names), bg: l.bg };
}

/**
 * A route badge: bold text on the line's colour, a circle (MTA bullet) for one character, else a
 * rounded rectangle at least as wide as tall. `size` is the badge height in points (28–40 pt in list
 * rows). Returns its right edge.
 */
export function routeBadge(env: TransitEnv, route: Route, x: number, cy: number, size: number): number {
  const { scene, rng } = env;
  const font = route.name.length === 1 ? size * 0.62 : size * uniform(rng, 0.42, 0.55);
  const w = Math.max(size, scene.fonts.measure(route.name, font, "semibold") + size * 0.45);
  const round = route.name.length === 1 && chance(env.rng, 0.6);
  scene.draw(
    round
      ? circle(x + size / 2, cy, size / 2, route.bg)
      : rect({ x, y: cy - size / 2, w, h: size }, route.bg, randInt(rng, 3, Math.round(size / 4))),
  );
  line1(
    env,
    route.name,
    x + (round ? size : w) / 2,
    cy + font * 0.36,
    font,
    badgeInk(route.bg),
    "semibold",
    "middle",
  );
  return x + (round ? size : w);
}

/**
 * An arrival prediction, right-aligned at `right` on `baseline`: "3 min" in one size, a big number with a
 * small "min" beside it (the unit at caption size, 12–13 pt, as many arrival apps set it), several
 * predictions ("4, 12, 25 min"), "Now"/"Arriving"/"Due", or a clock time ("12:47"). Returns its left edge.
 */
export function prediction(env: TransitEnv, right: number, baseline: number, accent: string): number {
  const { rng, scene, locale, t } = env;
  const mins = randInt(rng, 1, 59);
  const style = randInt(rng, 0, 5);
  const minUnit = locale === "zh" ? "分钟" : "min";
  if (style <= 1) {
    // A big number and a small unit beside it on one baseline: one line to a reader ("3 min").
    const unit = scene.shape(minUnit, right, baseline, {
      size: randInt(rng, 12, 13),
      fill: t.secondary,
      anchor: "end",
    });
    const big = randInt(rng, 20, 28);
    const num = scene.shape(String(mins), unit.rect.x - 3, baseline, {
      size: big,
      weight: "semibold",
      fill: style === 0 ? t.fg : accent,
      anchor: "end",
    });
    scene.draw(num.svg + unit.svg);
    env.truth.text.push({ text: `${mins} ${minUnit}`, rect: union(num.rect, unit.rect) });
    return num.rect.x;
  }
  if (style === 2) {
    const more = [mins, mins + randInt(rng, 4, 15), mins + randInt(rng, 16, 40)].slice(0, randInt(rng, 2, 3));
    const s = locale === "zh" ? `${more.join("、")} 分钟` : `${more.join(", ")} min`;
    return line1(env, s, right, baseline, 15, t.fg, "regular", "end").x;
  }
  if (style === 3) {
    const s =
      locale === "zh"
        ? pick(rng, ["即将进站", "进站中", "已到站"])
        : pick(rng, ["Now", "Arriving", "Due", "Boarding"]);
    return line1(env, s, right, baseline, 17, accent, "semibold", "end").x;
  }
  if (style === 4) {
    const s = `${randInt(rng, 5, 23)}:${String(randInt(rng, 0, 59)).padStart(2, "0")}`;
    return line1(env, s, right, baseline, 17, t.fg, "regular", "end").x;
  }
  return line1(env, `${mins} ${minUnit}`, right, baseline, 17, t.fg, "semibold", "end").x;
}

/**
 * A map region like Apple Maps' standard style: land, parks and water patches, a street grid in white
 * (grey in dark mode), stop pins (a coloured circle with a white ring, sometimes its route number at
 * 11 pt) and the user's location dot (blue with a white ring and a translucent halo). The map is marked
 * as a region a labeller leaves partly unlabelled; its pins are listed apart, never as spurious rows.
 */
export function mapRegion(env: TransitEnv, r: Rect): void {
  const { rng, scene, t } = env;
  const land = t.dark ? "#242628" : "#f2efe9";
  const road = t.dark ? "#45474b" : "#ffffff";
  const parts = [rect(r, land)];
  for (let i = randInt(rng, 1, 3); i > 0; i--) {
    const w = uniform(rng, 60, 180);
    const h = uniform(rng, 40, 140);
    const fill = chance(rng, 0.6) ? (t.dark ? "#1f3a2a" : "#cde7c3") : t.dark ? "#1a2c44" : "#aad3f2";
    parts.push(
      rect({ x: r.x + uniform(rng, -20, r.w - 40), y: r.y + uniform(rng, 0, r.h - 40), w, h }, fill, 12),
    );
  }
  const angle = uniform(rng, -0.4, 0.4);
  for (let k = 0; k < 14; k++) {
    const wid = chance(rng, 0.25) ? 9 : 4;
    const off = uniform(rng, -r.h, r.w + r.h);
    if (k % 2 === 0)
      parts.push(
        line(r.x + off, r.y - 20, r.x + off + Math.tan(angle) * (r.h + 40), r.y + r.h + 20, road, wid),
      );
    else {
      const y = r.y + uniform(rng, 0, r.h);
      parts.push(line(r.x - 20, y, r.x + r.w + 20, y - Math.tan(angle) * (r.w + 40), road, wid));
    }
  }
  scene.draw(`<g>${parts.join("")}</g>`);
  for (let i = randInt(rng, 2, 6); i > 0; i--) {
    const x = r.x + uniform(rng, 20, r.w - 20);
    const y = r.y + uniform(rng, 60, r.h - 20);
    const route = randomRoute(rng, env.locale);
    scene.draw(circle(x, y, 11, "#ffffff") + circle(x, y, 9, route.bg));
    if (route.name.length <= 3 && chance(rng, 0.4)) {
      scene.draw(
        scene.shape(route.name, x, y + 4, {
          size: 11,
          weight: "semibold",
          fill: badgeInk(route.bg),
          anchor: "middle",
        }).svg,
      );
    } else scene.draw(rect({ x: x - 3.5, y: y - 4, w: 7, h: 8 }, badgeInk(route.bg), 1.5));
  }
  const ux = r.x + uniform(rng, 60, r.w - 60);
  const uy = r.y + uniform(rng, 100, r.h - 40);
  scene.draw(
    circle(ux, uy, 30, "#007aff", 'fill-opacity="0.15"') +
      circle(ux, uy, 9, "#ffffff") +
      circle(ux, uy, 6.5, "#007aff"),
  );
  env.truth.unlabelled.push({ rect: r, why: "map: stop pins and streets" });
}
