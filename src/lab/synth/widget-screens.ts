import type { FontBook } from "../../shared/fonts.js";
import type { RawImage } from "../../shared/image.js";
import { IPHONE_61 } from "../../shared/phone-model.js";
import { rasterize, svgDocument } from "../../sim/phone/render.js";
import { Scene } from "../../sim/phone/scene.js";
import { homeIndicator, notch, statusBar } from "../../sim/phone/screens/chrome.js";
import { rect } from "../../sim/phone/svg.js";
import { DARK, LIGHT } from "../../sim/phone/theme.js";
import type { Random } from "../../util/random.js";
import { tileIcon } from "./glyphs.js";
import { wallpaper } from "./ios-screens.js";
import { chromeCtx } from "./layout-env.js";
import { chance, hsl, pick, randInt, uniform } from "./pick.js";
import {
  type Box,
  type Day,
  type Kind,
  line,
  NAMES,
  type Paint,
  SMALL,
  widgetContent,
} from "./widget-kinds.js";
import { shortLabel } from "./words.js";

/**
 * Home screens whose widgets are custom-drawn, as widget scripts and clock apps draw them: big thin clock
 * digits, dates in English or Chinese (with the lunar date), weather with degree signs, progress bars,
 * countdowns, a month's day grid, grey captions, on solid, gradient or photo-like widget backgrounds.
 *
 * Metrics (390×844 pt, IPHONE_61): HIG "Widgets", Specifications, widget dimensions for a 390×844 pt
 * iPhone: small 158×158, medium 338×158, large 338×354 pt; HIG "App icons": 60 pt home-screen icons in a
 * 4-column grid. As in `src/vision/home-layout.ts`, a small widget takes 2×2 icon cells, so the column
 * pitch is (338 − 158) / 2 = 90 pt and the row pitch (354 − 158) / 2 = 98 pt: a small widget spans exactly
 * one row's tile top to the next row's tile bottom (98 + 60 = 158). Widgets have continuous corners of
 * about 22 pt (SwiftUI's `ContainerRelativeShape` on a widget, measured on iOS 16 home screens); every
 * name line (app or widget) is 12 pt type centred 14 pt below its tile.
 */

const W = IPHONE_61.screenPt.width; // 390
const H = IPHONE_61.screenPt.height; // 844
const MEDIUM = 338;
const LARGE = 354;
const PITCH_X = (MEDIUM - SMALL) / 2; // 90
const PITCH_Y = (LARGE - SMALL) / 2; // 98
const TILE = 60;
const GRID_TOP = 71; // first row's tile top: under the 47 pt status bar (iOS 16, 390×844)
const ROWS = 6;
const RADIUS = 22;

export interface WidgetScreenOptions {
  locale?: "en" | "zh";
  dark?: boolean;
  /**
   * The page's blocks top to bottom instead of random ones (tests): a large widget (4 rows), a medium
   * (2), two small widgets (2), a row of apps (1); `kind` picks the large or medium widget's content.
   */
  blocks?: readonly ("large" | "medium" | "smalls" | "apps")[];
  kind?: "calendar" | "photo" | "clock" | "weather";
}

const colX = (c: number): number => W / 2 + (c - 1.5) * PITCH_X; // an app column's centre
const rowTop = (r: number): number => GRID_TOP + r * PITCH_Y;

/** The widget's background and inks: solid light or dark, a two-hue gradient, or a photo-like texture. */
function widgetBackground(
  rng: Random,
  scene: Scene,
  b: Box,
  kind: Kind,
  dark: boolean,
): { ink: string; grey: string } {
  const style = kind === "photo" ? "photo" : pick(rng, ["solid", "solid", "gradient", "photo"] as const);
  const n = scene.elements.length;
  if (style === "solid") {
    scene.draw(rect(b, dark ? "#1c1c1e" : "#ffffff", RADIUS));
    return dark ? { ink: "#ffffff", grey: "#8e8e93" } : { ink: "#000000", grey: "#8e8e93" };
  }
  const hue = rng.next() * 360;
  const a = hsl(hue, uniform(rng, 0.5, 0.9), uniform(rng, 0.3, 0.5));
  const c = hsl((hue + uniform(rng, 20, 80)) % 360, uniform(rng, 0.5, 0.9), uniform(rng, 0.2, 0.45));
  let svg = `<defs><linearGradient id="wg${n}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${c}"/></linearGradient>`;
  if (style === "photo")
    svg += `<filter id="wf${n}"><feTurbulence type="fractalNoise" baseFrequency="${uniform(rng, 0.01, 0.04).toFixed(3)}" numOctaves="4" seed="${randInt(rng, 1, 999)}"/><feColorMatrix type="saturate" values="1.2"/></filter>`;
  svg += `<clipPath id="wc${n}"><rect x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}" rx="${RADIUS}"/></clipPath></defs>`;
  svg += `<g clip-path="url(#wc${n})">${rect(b, `url(#wg${n})`)}`;
  if (style === "photo")
    svg += `<rect x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}" filter="url(#wf${n})" opacity="0.55"/>`;
  scene.draw(`${svg}</g>`);
  return { ink: "#ffffff", grey: "#ebebf5" };
}

/** One widget at `b`, its content and its name line under it. */
function widget(
  p: Omit<Paint, "ink" | "grey">,
  b: Box,
  kind: Kind,
  d: Day,
  dark: boolean,
  nameInk: string,
): void {
  const { ink, grey } = widgetBackground(p.rng, p.scene, b, kind, dark);
  const name = NAMES[kind][p.zh ? 1 : 0];
  p.scene.add({ id: `w.widget.${p.scene.elements.length}`, kind: "control", label: name, rect: b });
  const paint: Paint = { ...p, ink, grey };
  widgetContent(paint, b, kind, d);
  line(paint, name, b.x + b.w / 2, b.y + b.h + 14 + 4, 12, { anchor: "middle", fill: nameInk });
}

function appIcon(p: Omit<Paint, "ink" | "grey">, c: number, r: number, nameInk: string): void {
  const x = colX(c) - TILE / 2;
  const y = rowTop(r);
  const name = shortLabel(p.rng, p.zh ? "zh" : "en").slice(0, p.zh ? 4 : 11);
  p.scene.add(
    { id: `w.app.${p.scene.elements.length}`, kind: "icon", label: name, rect: { x, y, w: TILE, h: TILE } },
    tileIcon(p.rng, x, y, TILE, "squircle"),
  );
  p.scene.text(`w.name.${p.scene.elements.length}`, name, colX(c), y + TILE + 14 + 4, {
    size: 12,
    fill: nameInk,
    anchor: "middle",
  });
}

/** A widget home screen at 390×844 pt; `lang`/`theme` for the label file. */
export function widgetScreen(
  rng: Random,
  fonts: FontBook,
  opts: WidgetScreenOptions = {},
): { scene: Scene; lang: "en" | "zh"; dark: boolean } {
  const zh = opts.locale ? opts.locale === "zh" : chance(rng, 0.5);
  const dark = opts.dark ?? chance(rng, 0.5);
  const scene = new Scene(fonts, W, H, "w");
  const wp = wallpaper(rng, W, H);
  scene.draw(wp.svg);
  const nameInk = wp.light ? "#000000" : "#ffffff";
  const p = { scene, rng, zh };
  const d: Day = {
    month: randInt(rng, 0, 8),
    day: randInt(rng, 1, 28),
    weekday: randInt(rng, 0, 6),
    hour: randInt(rng, 0, 23),
    minute: randInt(rng, 0, 59),
  };
  const small: Kind[] = ["clock", "weather", "progress", "countdown", "photo"];
  let r = 0;
  const forced = opts.blocks ? [...opts.blocks] : undefined;
  const U = { large: 0, medium: 0.3, smalls: 0.7, apps: 0.9 };
  while (r < ROWS) {
    const left = ROWS - r;
    const next = forced?.shift();
    if (forced && !next) break;
    const u = next ? U[next] : rng.next();
    if (left >= 4 && u < 0.15) {
      widget(
        p,
        { x: W / 2 - MEDIUM / 2, y: rowTop(r), w: MEDIUM, h: LARGE },
        opts.kind === "calendar" || opts.kind === "photo"
          ? opts.kind
          : pick(rng, ["calendar", "photo"] as const),
        d,
        dark,
        nameInk,
      );
      r += 4;
    } else if (left >= 2 && u < 0.45) {
      widget(
        p,
        { x: W / 2 - MEDIUM / 2, y: rowTop(r), w: MEDIUM, h: SMALL },
        opts.kind ?? pick(rng, ["clock", "weather", "calendar"] as const),
        d,
        dark,
        nameInk,
      );
      r += 2;
    } else if (left >= 2 && u < 0.8) {
      const two = next === "smalls" || chance(rng, 0.5);
      const side = randInt(rng, 0, 1);
      for (const s of two ? [0, 1] : [side])
        widget(
          p,
          { x: W / 2 + (s === 0 ? -90 : 90) - SMALL / 2, y: rowTop(r), w: SMALL, h: SMALL },
          pick(rng, small),
          d,
          dark,
          nameInk,
        );
      if (!two)
        for (const rr of [r, r + 1]) for (const c of side === 0 ? [2, 3] : [0, 1]) appIcon(p, c, rr, nameInk);
      r += 2;
    } else {
      for (let c = 0; c < 4; c++) if (r < 5 || !chance(rng, 0.3)) appIcon(p, c, r, nameInk);
      r += 1;
    }
  }
  // Page dots, the dock (4 unnamed apps on the grid's columns), the status bar.
  const dotsY = rowTop(ROWS) + 14;
  scene.add(
    {
      id: "w.dots",
      kind: "control",
      label: "page dots",
      rect: { x: W / 2 - 22, y: dotsY - 6, w: 44, h: 12 },
    },
    [-1, 0, 1]
      .map(
        (i) =>
          `<circle cx="${W / 2 + i * 14}" cy="${dotsY}" r="3.5" fill="${nameInk}" fill-opacity="${i ? 0.4 : 0.95}"/>`,
      )
      .join(""),
  );
  const dockTop = H - 34 - 92 + 8;
  scene.draw(
    rect(
      { x: 12, y: dockTop, w: W - 24, h: 92 },
      pick(rng, ["#ffffff", "#d8d8d8", "#333333"]),
      32,
      `fill-opacity="${uniform(rng, 0.2, 0.45).toFixed(2)}"`,
    ),
  );
  for (let c = 0; c < 4; c++) {
    const x = colX(c) - TILE / 2;
    scene.add(
      { id: `w.dock.${c}`, kind: "icon", label: "", rect: { x, y: dockTop + 16, w: TILE, h: TILE } },
      tileIcon(rng, x, dockTop + 16, TILE, "squircle"),
    );
  }
  const ctx = chromeCtx(rng, fonts, zh ? "zh" : "en", dark ? DARK : LIGHT, W, H);
  statusBar(scene, ctx, !wp.light);
  if (chance(rng, 0.5)) notch(scene, ctx);
  else scene.draw(rect({ x: W / 2 - 63, y: 11, w: 126, h: 37 }, "#000000", 18.5));
  homeIndicator(scene, ctx, !wp.light);
  return { scene, lang: zh ? "zh" : "en", dark };
}

/** `widgetScreen` drawn at 1170 × 2532 px (an iPhone 6.1" screenshot's size), RGBA. */
export function renderWidgetScreen(scene: Scene): Promise<RawImage> {
  return rasterize(svgDocument(scene.body(), IPHONE_61), IPHONE_61);
}
