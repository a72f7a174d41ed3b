import type { FontWeight } from "../../shared/fonts.js";
import type { Scene } from "../../sim/phone/scene.js";
import { rect } from "../../sim/phone/svg.js";
import type { Random } from "../../util/random.js";
import { chance, hsl, pick, randInt } from "./pick.js";

/**
 * What the widgets of `widget-screens.ts` show, as widget scripts and clock apps draw them: big thin clock
 * digits, dates in English or Chinese (with the lunar date), weather with degree signs, progress bars,
 * countdowns, a month's day grid, a photo's caption. Sizes as in `widget-screens.ts` (HIG "Widgets").
 */

/** A small widget's side in points (HIG "Widgets", 390×844 pt iPhone). */
export const SMALL = 158;

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Paint {
  scene: Scene;
  rng: Random;
  zh: boolean;
  /** Primary and secondary ink on the widget's background. */
  ink: string;
  grey: string;
}

export function line(p: Paint, s: string, x: number, y: number, size: number, opts: LineOpts = {}): void {
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

export interface Day {
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

export type Kind = "clock" | "weather" | "progress" | "countdown" | "calendar" | "photo";

export const NAMES: Record<Kind, [string, string]> = {
  clock: ["Clock", "时钟"],
  weather: ["Weather", "天气"],
  progress: ["Scriptable", "Scriptable"],
  countdown: ["Countdown", "倒数日"],
  calendar: ["Calendar", "日历"],
  photo: ["Photos", "照片"],
};

/** Draws a widget's content of `kind` inside `b`. */
export function widgetContent(paint: Paint, b: Box, kind: Kind, d: Day): void {
  if (kind === "clock") clockWidget(paint, b, d);
  else if (kind === "weather") weatherWidget(paint, b);
  else if (kind === "progress") progressWidget(paint, b);
  else if (kind === "countdown") countdownWidget(paint, b, d);
  else if (kind === "calendar") calendarWidget(paint, b, d);
  else photoWidget(paint, b, d);
}
