import { seededRandom } from "../../../util/random.js";
import type { Ctx } from "../context.js";
import type { Scene } from "../scene.js";
import type { AppUi, PhoneState } from "../state.js";
import { STRINGS, type StringKey } from "../strings.js";
import { circle, line, rect } from "../svg.js";
import { appFinish, appFrame } from "./common.js";

type WeatherUi = AppUi["weather"];
type Condition = "sunny" | "partlyCloudy" | "cloudy" | "rain";

const CONDITIONS: Condition[] = ["sunny", "partlyCloudy", "cloudy", "rain"];
const CONDITION_KEY: Record<Condition, StringKey> = {
  sunny: "weather.sunny",
  partlyCloudy: "weather.partlyCloudy",
  cloudy: "weather.cloudy",
  rain: "weather.rain",
};

export function weatherUi(state: PhoneState): WeatherUi {
  state.ui.weather ??= { scroll: 0 };
  return state.ui.weather;
}

/** Deterministic weather for a calendar day (same day → same forecast on every machine). */
function day(dayNumber: number): { condition: Condition; low: number; high: number } {
  const r = seededRandom(dayNumber * 7919);
  const low = 8 + Math.floor(r.next() * 6);
  return {
    condition: CONDITIONS[Math.floor(r.next() * CONDITIONS.length)] ?? "sunny",
    low,
    high: low + 5 + Math.floor(r.next() * 6),
  };
}

/** Temperature at a given hour of a day: low before dawn, high mid-afternoon. */
function tempAt(dayNumber: number, hour: number): number {
  const d = day(dayNumber);
  const phase = Math.cos(((hour - 15) / 24) * 2 * Math.PI);
  return Math.round(d.low + ((d.high - d.low) * (phase + 1)) / 2);
}

function dayNumber(ctx: Ctx): number {
  return Math.floor((ctx.nowMs + ctx.utcOffsetMinutes * 60_000) / 86_400_000);
}

export function weatherSummary(
  state: PhoneState,
  nowMs: number,
  utcOffsetMinutes: number,
  locale: "en" | "zh",
): string {
  const ui = weatherUi(state);
  const dn = Math.floor((nowMs + utcOffsetMinutes * 60_000) / 86_400_000);
  const hour = new Date(nowMs + utcOffsetMinutes * 60_000).getUTCHours();
  const d = day(dn);
  return `${STRINGS[locale]["weather.city"]} ${tempAt(dn, hour)}°, ${STRINGS.en[CONDITION_KEY[d.condition]]}, scrolled ${Math.round(ui.scroll)} pt`;
}

function glyph(c: Condition, cx: number, cy: number, k = 1): string {
  const cloud = (x: number, y: number): string =>
    circle(x - 5 * k, y + 2 * k, 6 * k, "#fff") +
    circle(x + 3 * k, y - 2 * k, 8 * k, "#fff") +
    rect({ x: x - 11 * k, y: y + 2 * k, w: 22 * k, h: 6 * k }, "#fff", 3 * k);
  if (c === "sunny") return circle(cx, cy, 9 * k, "#ffd60a");
  if (c === "partlyCloudy")
    return circle(cx - 4 * k, cy - 4 * k, 8 * k, "#ffd60a") + cloud(cx + 2 * k, cy + 2 * k);
  if (c === "cloudy") return cloud(cx, cy);
  return (
    cloud(cx, cy - 3 * k) +
    [-6, 0, 6]
      .map((dx) => line(cx + dx * k, cy + 8 * k, cx + (dx - 2) * k, cy + 13 * k, "#5ac8fa", 2 * k))
      .join("")
  );
}

export function buildWeather(scene: Scene, ctx: Ctx): void {
  const { W, H, s, locale } = ctx;
  const ui = weatherUi(ctx.state);
  appFrame(scene, ctx, "url(#sky)");
  const dn = dayNumber(ctx);
  const today = day(dn);
  const hour = ctx.wall.hours;
  const top = 47;
  const contentH = 470 + 40 + 10 * 44 + 60;
  const maxScroll = Math.max(0, contentH - (H - top));
  ui.scroll = Math.min(maxScroll, Math.max(0, ui.scroll));
  const y0 = -ui.scroll;
  const white = { fill: "#ffffff", anchor: "middle" as const };
  scene.beginClip({ x: 0, y: top, w: W, h: H - top });
  scene.text("weather.city", s["weather.city"], W / 2, y0 + 110, { size: 34, ...white });
  scene.text("weather.temp", `${tempAt(dn, hour)}°`, W / 2 + 14, y0 + 210, {
    size: 96,
    weight: "light",
    ...white,
  });
  scene.text("weather.condition", s[CONDITION_KEY[today.condition]], W / 2, y0 + 244, {
    size: 20,
    weight: "semibold",
    ...white,
  });
  scene.text(
    "weather.highLow",
    `${s["weather.high"]}:${today.high}°  ${s["weather.low"]}:${today.low}°`,
    W / 2,
    y0 + 272,
    { size: 20, weight: "semibold", ...white },
  );
  const hourly = { x: 16, y: y0 + 300, w: W - 32, h: 140 };
  scene.draw(rect(hourly, "#ffffff", 14, 'fill-opacity="0.18"'));
  scene.text("weather.hourly", s["weather.hourly"], 32, hourly.y + 26, {
    size: 13,
    weight: "semibold",
    fill: "#ffffffb0",
  });
  for (let i = 0; i < 6; i++) {
    const h = (hour + i) % 24;
    const cx = hourly.x + 28 + i * ((hourly.w - 56) / 5);
    const label =
      i === 0 ? s["weather.now"] : locale === "en" ? `${h % 12 || 12}${h < 12 ? "AM" : "PM"}` : `${h}时`;
    const cond = CONDITIONS[(dn + h) % 7 < 4 ? CONDITIONS.indexOf(today.condition) : h % 4] ?? "sunny";
    scene.text(`weather.hour.${i}.label`, label, cx, hourly.y + 62, {
      size: 15,
      weight: "semibold",
      ...white,
    });
    scene.add(
      {
        id: `weather.hour.${i}.icon`,
        kind: "icon",
        label: s[CONDITION_KEY[cond]],
        rect: { x: cx - 12, y: hourly.y + 74, w: 24, h: 24 },
      },
      glyph(cond, cx, hourly.y + 86),
    );
    scene.text(`weather.hour.${i}.temp`, `${tempAt(h < hour ? dn + 1 : dn, h)}°`, cx + 3, hourly.y + 126, {
      size: 18,
      weight: "semibold",
      ...white,
    });
  }
  const daily = { x: 16, y: y0 + 460, w: W - 32, h: 40 + 10 * 44 };
  scene.draw(rect(daily, "#ffffff", 14, 'fill-opacity="0.18"'));
  scene.text("weather.daily", s["weather.daily"], 32, daily.y + 26, {
    size: 13,
    weight: "semibold",
    fill: "#ffffffb0",
  });
  for (let i = 0; i < 10; i++) {
    const y = daily.y + 40 + i * 44;
    const d = day(dn + i);
    const weekday = (ctx.wall.weekday + i) % 7;
    scene.draw(rect({ x: 32, y, w: daily.w - 32, h: 0.5 }, "#ffffff40"));
    scene.text(
      `weather.day.${i}.name`,
      i === 0 ? s["common.today"] : s[`dayShort.${weekday}` as StringKey],
      32,
      y + 29,
      { size: 19, weight: "semibold", fill: "#fff" },
    );
    scene.add(
      {
        id: `weather.day.${i}.icon`,
        kind: "icon",
        label: s[CONDITION_KEY[d.condition]],
        rect: { x: 128, y: y + 10, w: 24, h: 24 },
      },
      glyph(d.condition, 140, y + 22, 0.9),
    );
    scene.text(`weather.day.${i}.low`, `${d.low}°`, 200, y + 29, {
      size: 19,
      weight: "semibold",
      fill: "#ffffffa0",
      anchor: "end",
    });
    const bar = { x: 212, y: y + 20, w: 90, h: 4 };
    scene.draw(
      rect(bar, "#00000030", 2) +
        rect({ x: bar.x + (d.low - 8) * 4, y: bar.y, w: (d.high - d.low) * 4 + 8, h: 4 }, "#ffcc00", 2),
    );
    scene.text(`weather.day.${i}.high`, `${d.high}°`, W - 32, y + 29, {
      size: 19,
      weight: "semibold",
      fill: "#fff",
      anchor: "end",
    });
  }
  scene.endClip();
  scene.scroll({
    rect: { x: 0, y: top, w: W, h: H - top },
    axis: "y",
    scrollBy: (d) => {
      ui.scroll = Math.min(maxScroll, Math.max(0, ui.scroll + d));
    },
  });
  appFinish(scene, ctx, true);
}
