import type { FontBook, FontWeight } from "../../shared/fonts.js";
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
const SMALL = 158;
const MEDIUM = 338;
const LARGE = 354;
const PITCH_X = (MEDIUM - SMALL) / 2; // 90
const PITCH_Y = (LARGE - SMALL) / 2; // 98
const TILE = 60;
const GRID_TOP = 71; // first row's tile top: under the 47 pt status bar (iOS 16, 390×844)
const ROWS = 6;
const RADIUS = 22;

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface Paint {
  scene: Scene;
  rng: Random;
  zh: boolean;
  /** Primary and secondary ink on the widget's background. */
  ink: string;
  grey: string;
}

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

function line(p: Paint, s: string, x: number, y: number, size: number, opts: LineOpts = {}): void {
  p.scene.text(`w.text.${p.scene.elements.length}`, s, x, y, {
    size,
    weight: opts.weight ?? "regular",
    fill: opts.fill ?? p.ink,
    anchor: opts.anchor ?? "start",
  });
}

interface LineOpts {
  weight?: FontWeight;
  fill?: string;
  anchor?: "start" | "middle" | "end";
}

const WEEK_EN = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const WEEK_ZH = ["星期日", "星期一", "星期二", "星期三", "星期四", "星期五", "星期六"];
const MONTH_EN = ["January", "February", "March", "April", "May", "June", "July", "August", "September"];
const LUNAR_MONTH = [
  "正月",
  "二月",
  "三月",
  "四月",
  "五月",
  "六月",
  "七月",
  "八月",
  "九月",
  "十月",
  "冬月",
  "腊月",
];
const LUNAR_DAY = ["初一", "初五", "初九", "十二", "十五", "十八", "二十", "廿一", "廿六", "廿九", "三十"];

interface Day {
  month: number; // 0-based, < 9 so English names stay short enough for a small widget
  day: number;
  weekday: number;
  hour: number;
  minute: number;
}

function dateLine(p: Paint, d: Day, short: boolean): string {
  if (p.zh) return `${d.month + 1}月${d.day}日 ${WEEK_ZH[d.weekday]}`;
  const wd = WEEK_EN[d.weekday] ?? "Sunday";
  const mo = MONTH_EN[d.month] ?? "May";
  return short ? `${wd.slice(0, 3)}, ${mo.slice(0, 3)} ${d.day}` : `${wd}, ${mo} ${d.day}`;
}

/** A clock: thin digits 44–64 pt (clock apps draw them in a light or ultralight weight), the date, the lunar date. */
function clockWidget(p: Paint, b: Box, d: Day): void {
  const big = b.w > SMALL ? randInt(p.rng, 54, 64) : randInt(p.rng, 42, 48);
  const time = `${String(d.hour).padStart(2, "0")}:${String(d.minute).padStart(2, "0")}`;
  const centre = chance(p.rng, 0.5);
  const x = centre ? b.x + b.w / 2 : b.x + 16;
  const anchor = centre ? "middle" : "start";
  let y = b.y + 24 + big * 0.85;
  line(p, time, x, y, big, { weight: "light", anchor });
  y += 26;
  line(p, dateLine(p, d, b.w <= SMALL), x, y, b.w > SMALL ? 17 : 14, { anchor });
  if (p.zh && chance(p.rng, 0.7)) {
    y += 22;
    const lunar = `${pick(p.rng, LUNAR_MONTH)}${pick(p.rng, LUNAR_DAY)}`;
    line(p, chance(p.rng, 0.4) ? `农历${lunar}` : lunar, x, y, 13, { fill: p.grey, anchor });
  }
}

const CITIES_EN = ["Cupertino", "London", "Berlin", "Tokyo", "New York", "Sydney"];
const CITIES_ZH = ["北京", "上海", "广州", "深圳", "杭州", "成都"];
const SKY_EN = ["Cloudy", "Sunny", "Rain", "Clear", "Snow", "Partly Cloudy"];
const SKY_ZH = ["多云", "晴", "小雨", "阴", "雷阵雨", "晴转多云"];

/**
 * Weather: the city, a big temperature with its degree sign, the sky, the day's high and low; a medium
 * widget adds an hourly strip across its bottom, six columns at the widget's width over six (Apple's
 * Weather widget spaces its hours so: ~51 pt apart on a 338 pt medium).
 */
function weatherWidget(p: Paint, b: Box): void {
  const t = randInt(p.rng, -5, 34);
  const hi = t + randInt(p.rng, 1, 6);
  const lo = t - randInt(p.rng, 1, 8);
  const x = b.x + 16;
  const sky = pick(p.rng, p.zh ? SKY_ZH : SKY_EN);
  const range = p.zh ? `最高${hi}° 最低${lo}°` : `H:${hi}° L:${lo}°`;
  line(p, pick(p.rng, p.zh ? CITIES_ZH : CITIES_EN), x, b.y + 30, 15, { weight: "semibold" });
  if (b.w <= SMALL) {
    line(p, `${t}°`, x, b.y + 80, randInt(p.rng, 38, 46), {
      weight: pick(p.rng, ["light", "regular"] as const),
    });
    line(p, sky, x, b.y + 112, 13, { weight: "semibold" });
    line(p, range, x, b.y + 132, 13, { fill: p.grey });
    return;
  }
  line(p, `${t}°`, x, b.y + 74, randInt(p.rng, 34, 40), {
    weight: pick(p.rng, ["light", "regular"] as const),
  });
  line(p, sky, b.x + b.w - 16, b.y + 30, 13, { weight: "semibold", anchor: "end" });
  line(p, range, b.x + b.w - 16, b.y + 50, 13, { fill: p.grey, anchor: "end" });
  const pitch = (b.w - 32) / 6;
  for (let i = 0; i < 6; i++) {
    const cx = b.x + 16 + pitch * (i + 0.5);
    line(p, `${(8 + 2 * i) % 24}${p.zh ? "时" : ""}`, cx, b.y + 112, 12, { fill: p.grey, anchor: "middle" });
    line(p, `${t + randInt(p.rng, -3, 3)}°`, cx, b.y + 138, 14, { anchor: "middle" });
  }
}

/** Progress: a title, a percentage and a 6 pt capsule bar (battery, the year gone, a goal). */
function progressWidget(p: Paint, b: Box): void {
  const pct = randInt(p.rng, 3, 99);
  const title = pick(
    p.rng,
    p.zh ? ["电量", "今年已过", "本月进度", "步数目标"] : ["Battery", "Year Progress", "Storage", "Goal"],
  );
  const x = b.x + 16;
  line(p, title, x, b.y + 32, 15, { weight: "semibold" });
  line(p, `${pct}%`, x, b.y + 84, randInt(p.rng, 32, 40), { weight: "light" });
  const bw = b.w - 32;
  const track = p.ink === "#ffffff" ? "#ffffff" : "#000000";
  p.scene.draw(
    rect({ x, y: b.y + 104, w: bw, h: 6 }, track, 3, 'fill-opacity="0.2"') +
      rect({ x, y: b.y + 104, w: (bw * pct) / 100, h: 6 }, hsl(p.rng.next() * 360, 0.7, 0.55), 3),
  );
  const caption = p.zh
    ? `更新于 ${randInt(p.rng, 10, 23)}:${randInt(p.rng, 10, 59)}`
    : `Updated ${randInt(p.rng, 2, 59)} min ago`;
  line(p, caption, x, b.y + 136, 11, { fill: p.grey });
}

const EVENTS_EN = ["Christmas", "New Year", "Vacation", "Birthday"];
const EVENTS_ZH = ["春节", "元旦", "国庆节", "生日"];

/** A countdown: the event, a big day count, the date. */
function countdownWidget(p: Paint, b: Box, d: Day): void {
  const n = randInt(p.rng, 2, 300);
  const x = b.x + 16;
  const ev = pick(p.rng, p.zh ? EVENTS_ZH : EVENTS_EN);
  line(p, p.zh ? `距离${ev}还有` : `${ev} in`, x, b.y + 32, 14, { fill: p.grey });
  line(p, p.zh ? `${n}天` : `${n} days`, x, b.y + 86, randInt(p.rng, 34, 42), { weight: "semibold" });
  line(p, dateLine(p, d, true), x, b.y + 130, 12, { fill: p.grey });
}

/** A month: its title, weekday initials and the day grid (a large or medium widget's calendar). */
function calendarWidget(p: Paint, b: Box, d: Day): void {
  const x0 = b.x + 18;
  line(p, p.zh ? `2026年${d.month + 1}月` : `${MONTH_EN[d.month] ?? "May"} 2026`, x0, b.y + 30, 15, {
    weight: "semibold",
    // Calendar's red month title on its white or dark card; white on a coloured one.
    fill: p.grey === "#8e8e93" ? "#ff3b30" : p.ink,
  });
  const cw = (b.w - 36) / 7;
  const heads = p.zh ? ["日", "一", "二", "三", "四", "五", "六"] : ["S", "M", "T", "W", "T", "F", "S"];
  heads.forEach((h, i) => {
    line(p, h, x0 + cw * (i + 0.5), b.y + 56, 11, { fill: p.grey, anchor: "middle", weight: "semibold" });
  });
  const first = randInt(p.rng, 0, 6);
  const rowH = b.h > SMALL ? 40 : 16;
  const weeks = b.h > SMALL ? 6 : 5;
  for (let k = 0; k < weeks * 7; k++) {
    const day = k - first + 1;
    if (day < 1 || day > 30) continue;
    const cx = x0 + cw * ((k % 7) + 0.5);
    const cy = b.y + 56 + rowH * (1 + Math.floor(k / 7)) + (b.h > SMALL ? 0 : -2);
    const today = day === d.day;
    if (today) p.scene.draw(`<circle cx="${cx}" cy="${cy - 4}" r="${rowH > 20 ? 13 : 8}" fill="#ff3b30"/>`);
    line(p, String(day), cx, cy, rowH > 20 ? 16 : 10, { anchor: "middle", fill: today ? "#ffffff" : p.ink });
  }
}

/** A photo widget with a small caption at the bottom (a script's quote or a photo's date). */
function photoWidget(p: Paint, b: Box, d: Day): void {
  const caption = p.zh
    ? pick(p.rng, ["今日照片", "一年前的今天", "美好的一天"])
    : pick(p.rng, ["On This Day", "Featured Photo", "Memories"]);
  line(p, caption, b.x + 16, b.y + b.h - 36, 15, { weight: "semibold", fill: "#ffffff" });
  line(p, dateLine(p, d, true), b.x + 16, b.y + b.h - 16, 12, { fill: "#e5e5ea" });
}

type Kind = "clock" | "weather" | "progress" | "countdown" | "calendar" | "photo";

const NAMES: Record<Kind, [string, string]> = {
  clock: ["Clock", "时钟"],
  weather: ["Weather", "天气"],
  progress: ["Scriptable", "Scriptable"],
  countdown: ["Countdown", "倒数日"],
  calendar: ["Calendar", "日历"],
  photo: ["Photos", "照片"],
};

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
  if (kind === "clock") clockWidget(paint, b, d);
  else if (kind === "weather") weatherWidget(paint, b);
  else if (kind === "progress") progressWidget(paint, b);
  else if (kind === "countdown") countdownWidget(paint, b, d);
  else if (kind === "calendar") calendarWidget(paint, b, d);
  else photoWidget(paint, b, d);
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
