import type { Ctx } from "../context.js";
import { GESTURE_THRESHOLDS as T } from "../gesture-thresholds.js";
import type { Scene } from "../scene.js";
import type { AppUi, ClockTab, PhoneState } from "../state.js";
import type { StringKey } from "../strings.js";
import { circle, line, rect, toggleSwitch } from "../svg.js";
import { clockTime, countdown, stopwatch, wallTime } from "../time-format.js";
import { appFinish, appFrame, roundButton, tabBar } from "./common.js";

type ClockUi = AppUi["clock"];

/** Picker range: iOS-like minutes wheel without wrap-around. */
const MAX_MINUTES = 99;
const PICKER_CY = 240;

export function clockUi(state: PhoneState): ClockUi {
  state.ui.clock ??= { tab: "world", pickerMinutes: 5 };
  return state.ui.clock;
}

/** Timer phase at `nowMs`: "done" is derived from the clock, never stored. */
export function timerPhase(state: PhoneState, nowMs: number): "idle" | "running" | "paused" | "done" {
  const t = state.timer;
  if (t.status === "running" && nowMs >= t.endMs) return "done";
  return t.status;
}

export function timerRemainingMs(state: PhoneState, nowMs: number): number {
  const t = state.timer;
  if (t.status === "running") return Math.max(0, t.endMs - nowMs);
  if (t.status === "paused") return t.remainingMs;
  return 0;
}

export function stopwatchMs(state: PhoneState, nowMs: number): number {
  const sw = state.stopwatch;
  return sw.accumulatedMs + (sw.startedAtMs === null ? 0 : nowMs - sw.startedAtMs);
}

/** One-line human summary for truth(). */
export function clockSummary(state: PhoneState, nowMs: number): string {
  const ui = clockUi(state);
  const phase = timerPhase(state, nowMs);
  const left = countdown(timerRemainingMs(state, nowMs));
  if (ui.tab === "timer") {
    if (phase === "idle") return `timer tab, ${ui.pickerMinutes} min selected`;
    if (phase === "done") return "timer done";
    return `timer ${phase}, ${left} left`;
  }
  const timer = phase === "idle" ? "" : phase === "done" ? ", timer done" : `, timer ${phase} ${left} left`;
  if (ui.tab === "stopwatch")
    return `stopwatch ${state.stopwatch.startedAtMs === null ? "stopped" : "running"} at ${stopwatch(stopwatchMs(state, nowMs))}${timer}`;
  return `${ui.tab === "world" ? "world clock" : "alarm"} tab${timer}`;
}

const glyphs: Record<ClockTab, (cx: number, cy: number, c: string) => string> = {
  world: (cx, cy, c) =>
    circle(cx, cy, 11, "none", `stroke="${c}" stroke-width="2"`) +
    line(cx - 11, cy, cx + 11, cy, c, 1.5) +
    `<ellipse cx="${cx}" cy="${cy}" rx="5" ry="11" fill="none" stroke="${c}" stroke-width="1.5"/>`,
  alarm: (cx, cy, c) =>
    circle(cx, cy + 1, 10, "none", `stroke="${c}" stroke-width="2.2"`) +
    line(cx, cy + 1, cx, cy - 5, c, 2) +
    line(cx, cy + 1, cx + 4, cy + 3, c, 2) +
    circle(cx - 9, cy - 9, 3, c) +
    circle(cx + 9, cy - 9, 3, c),
  stopwatch: (cx, cy, c) =>
    circle(cx, cy + 2, 10, "none", `stroke="${c}" stroke-width="2.2"`) +
    rect({ x: cx - 3, y: cy - 12, w: 6, h: 3 }, c, 1) +
    line(cx, cy + 2, cx + 4, cy - 3, c, 2),
  timer: (cx, cy, c) =>
    circle(cx, cy, 11, "none", `stroke="${c}" stroke-width="2.2" stroke-dasharray="3 2"`) +
    line(cx, cy, cx, cy - 7, c, 2),
};

const TABS: { id: ClockTab; key: StringKey }[] = [
  { id: "world", key: "clock.world" },
  { id: "alarm", key: "clock.alarm" },
  { id: "stopwatch", key: "clock.stopwatch" },
  { id: "timer", key: "clock.timer" },
];

const CITIES: { key: StringKey; offsetMin: number }[] = [
  { key: "clock.city.cupertino", offsetMin: -480 },
  { key: "clock.city.newyork", offsetMin: -300 },
  { key: "clock.city.london", offsetMin: 0 },
  { key: "clock.city.shanghai", offsetMin: 480 },
  { key: "clock.city.tokyo", offsetMin: 540 },
];

function world(scene: Scene, ctx: Ctx): void {
  const { s, theme: t } = ctx;
  scene.text("clock.edit", s["common.edit"], 16, 75, { size: 17, fill: "#ff9500" });
  scene.text("title", s["clock.world"], 16, 132, { size: 34, weight: "semibold", fill: t.fg });
  CITIES.forEach((city, i) => {
    const y = 150 + i * 92;
    const w = wallTime(ctx.nowMs, city.offsetMin);
    const dayDiff = Math.sign(
      Date.UTC(w.year, w.month, w.day) - Date.UTC(ctx.wall.year, ctx.wall.month, ctx.wall.day),
    );
    const day = s[dayDiff === 0 ? "common.today" : dayDiff > 0 ? "common.tomorrow" : "common.yesterday"];
    const hrs = (city.offsetMin - ctx.utcOffsetMinutes) / 60;
    scene.text(
      `clock.world.${i}.offset`,
      `${day}, ${hrs >= 0 ? "+" : ""}${hrs}${s["common.hrs"]}`,
      16,
      y + 34,
      { size: 14, fill: t.secondary },
    );
    scene.text(`clock.world.${i}.city`, s[city.key], 16, y + 62, { size: 22, fill: t.fg });
    scene.text(`clock.world.${i}.time`, clockTime(w, ctx.locale), ctx.W - 16, y + 64, {
      size: 52,
      weight: "light",
      fill: t.fg,
      anchor: "end",
    });
    scene.draw(rect({ x: 16, y: y + 91, w: ctx.W - 16, h: 0.5 }, t.separator));
  });
}

const ALARMS: { h: number; m: number; key: StringKey }[] = [
  { h: 6, m: 30, key: "clock.alarm.wake" },
  { h: 7, m: 15, key: "clock.alarm.gym" },
  { h: 9, m: 0, key: "clock.alarm.weekend" },
];

function alarm(scene: Scene, ctx: Ctx): void {
  const { s, theme: t, state } = ctx;
  scene.text("title", s["clock.alarm"], 16, 132, { size: 34, weight: "semibold", fill: t.fg });
  ALARMS.forEach((a, i) => {
    const y = 150 + i * 100;
    const on = state.alarms[i] ?? false;
    const color = on ? t.fg : t.secondary;
    scene.text(`clock.alarm.${i}.time`, clockTime({ hours: a.h, minutes: a.m }, ctx.locale), 16, y + 60, {
      size: 52,
      weight: "light",
      fill: color,
    });
    scene.text(`clock.alarm.${i}.label`, s[a.key], 16, y + 86, { size: 15, fill: color });
    const label = `${s[a.key]}: ${s[on ? "common.on" : "common.off"]}`;
    const flip = (): void => {
      state.alarms[i] = !on;
    };
    scene.add(
      {
        id: `clock.alarm.${i}.toggle`,
        kind: "control",
        label,
        rect: { x: ctx.W - 67, y: y + 34.5, w: 51, h: 31 },
        onTap: flip,
      },
      toggleSwitch(ctx.W - 67, y + 50, on, t.fill),
    );
    scene.draw(rect({ x: 16, y: y + 99, w: ctx.W - 16, h: 0.5 }, t.separator));
  });
}

function stopwatchTab(scene: Scene, ctx: Ctx): void {
  const { s, theme: t, state, W } = ctx;
  const sw = state.stopwatch;
  const ms = stopwatchMs(state, ctx.nowMs);
  const running = sw.startedAtMs !== null;
  scene.text("clock.stopwatch.time", stopwatch(ms), W / 2, 300, {
    size: 76,
    weight: "light",
    fill: t.fg,
    anchor: "middle",
  });
  const grey = { bg: t.fill, fg: t.fg };
  if (running)
    roundButton(scene, "clock.stopwatch.lap", s["clock.lap"], 70, 430, grey, () => sw.laps.unshift(ms));
  else
    roundButton(scene, "clock.stopwatch.reset", s["clock.reset"], 70, 430, grey, () =>
      Object.assign(sw, { accumulatedMs: 0, laps: [] }),
    );
  if (running)
    roundButton(
      scene,
      "clock.stopwatch.stop",
      s["clock.stop"],
      W - 70,
      430,
      { bg: "#ff3b3033", fg: "#ff453a" },
      () => {
        sw.accumulatedMs = ms;
        sw.startedAtMs = null;
      },
    );
  else
    roundButton(
      scene,
      "clock.stopwatch.start",
      s["clock.start"],
      W - 70,
      430,
      { bg: "#30d15833", fg: "#30d158" },
      () => {
        sw.startedAtMs = ctx.nowMs;
      },
    );
  sw.laps.slice(0, 4).forEach((lap, i) => {
    const y = 510 + i * 44;
    scene.text(`clock.stopwatch.lap.${i}`, `${s["clock.lap"]} ${sw.laps.length - i}`, 16, y + 28, {
      size: 17,
      fill: t.fg,
    });
    scene.text(`clock.stopwatch.lapTime.${i}`, stopwatch(lap), W - 16, y + 28, {
      size: 17,
      fill: t.fg,
      anchor: "end",
    });
  });
}

function picker(scene: Scene, ctx: Ctx, ui: ClockUi): void {
  const { W, theme: t, s } = ctx;
  const set = (v: number): void => {
    ui.pickerMinutes = Math.max(0, Math.min(MAX_MINUTES, v));
  };
  scene.draw(rect({ x: 16, y: PICKER_CY - 18, w: W - 32, h: 36 }, t.fill, 8));
  scene.add({
    id: "clock.timer.picker",
    kind: "control",
    label: `${ui.pickerMinutes} ${s["clock.min"]}`,
    rect: { x: 16, y: PICKER_CY - 100, w: W - 32, h: 200 },
    // Tapping a visible neighbour row selects it, as on the iOS wheel.
    onTap: (g) => set(ui.pickerMinutes + Math.round((g.at.y - PICKER_CY) / T.pickerRowPt)),
    // Dragging the wheel up brings larger numbers to the centre: one step per row travelled.
    onSwipe: (g) => {
      if (g.direction !== "up" && g.direction !== "down") return false;
      const rows = Math.round(-(g.dyMm * ctx.ptPerMm) / T.pickerRowPt);
      set(ui.pickerMinutes + (rows !== 0 ? rows : g.dyMm < 0 ? 1 : -1));
      return true;
    },
  });
  for (let k = -2; k <= 2; k++) {
    const v = ui.pickerMinutes + k;
    if (v < 0 || v > MAX_MINUTES) continue;
    const y = PICKER_CY + k * T.pickerRowPt + 8;
    const style = k === 0 ? { size: 23, fill: t.fg } : { size: 21 - Math.abs(k), fill: t.secondary };
    scene.text(`clock.timer.picker.${k === 0 ? "value" : `row${k}`}`, String(v), W / 2 - 10, y, {
      ...style,
      anchor: "end",
    });
  }
  scene.text("clock.timer.picker.unit", s["clock.min"], W / 2 + 4, PICKER_CY + 8, {
    size: 17,
    weight: "semibold",
    fill: t.fg,
  });
}

function timer(scene: Scene, ctx: Ctx, ui: ClockUi): void {
  const { W, theme: t, s, state } = ctx;
  const phase = timerPhase(state, ctx.nowMs);
  const cancel = (): void => {
    state.timer = { status: "idle", endMs: 0, remainingMs: 0, durationMs: 0 };
  };
  const grey = { bg: t.fill, fg: t.fg };
  if (phase === "idle") {
    picker(scene, ctx, ui);
    roundButton(scene, "clock.timer.cancel", s["common.cancel"], 70, 420, { bg: t.fill, fg: t.secondary });
    const start = (): void => {
      if (ui.pickerMinutes <= 0) return;
      const d = ui.pickerMinutes * 60_000;
      state.timer = { status: "running", endMs: ctx.nowMs + d, remainingMs: d, durationMs: d };
    };
    roundButton(
      scene,
      "clock.timer.start",
      s["clock.start"],
      W - 70,
      420,
      { bg: "#30d15833", fg: "#30d158" },
      start,
    );
    scene.draw(rect({ x: 16, y: 490, w: W - 32, h: 50 }, t.fill, 10));
    scene.text("clock.timer.whenEnds", s["clock.whenEnds"], 32, 521, { size: 17, fill: t.fg });
    scene.text("clock.timer.sound", s["clock.radar"], W - 32, 521, {
      size: 17,
      fill: t.secondary,
      anchor: "end",
    });
    return;
  }
  const left = timerRemainingMs(state, ctx.nowMs);
  const frac = state.timer.durationMs > 0 ? left / state.timer.durationMs : 0;
  const r = 120;
  const c = 2 * Math.PI * r;
  scene.draw(
    circle(W / 2, 270, r, "none", `stroke="${t.fill}" stroke-width="8"`) +
      `<circle cx="${W / 2}" cy="270" r="${r}" fill="none" stroke="#ff9f0a" stroke-width="8" stroke-linecap="round" stroke-dasharray="${(c * frac).toFixed(2)} ${c.toFixed(2)}" transform="rotate(-90 ${W / 2} 270)"/>`,
  );
  if (phase === "done") {
    scene.text("clock.timer.done", s["clock.timerDone"], W / 2, 282, {
      size: 30,
      weight: "semibold",
      fill: t.fg,
      anchor: "middle",
    });
    roundButton(scene, "clock.timer.cancel", s["common.cancel"], 70, 470, grey, cancel);
    roundButton(
      scene,
      "clock.timer.stop",
      s["clock.stop"],
      W - 70,
      470,
      { bg: "#ff3b3033", fg: "#ff453a" },
      cancel,
    );
    return;
  }
  scene.text("clock.timer.remaining", countdown(left), W / 2, 292, {
    size: 64,
    weight: "light",
    fill: t.fg,
    anchor: "middle",
  });
  roundButton(scene, "clock.timer.cancel", s["common.cancel"], 70, 470, grey, cancel);
  if (phase === "running")
    roundButton(
      scene,
      "clock.timer.pause",
      s["clock.pause"],
      W - 70,
      470,
      { bg: "#ff9f0a33", fg: "#ff9f0a" },
      () => {
        state.timer = { ...state.timer, status: "paused", remainingMs: left };
      },
    );
  else
    roundButton(
      scene,
      "clock.timer.resume",
      s["clock.resume"],
      W - 70,
      470,
      { bg: "#30d15833", fg: "#30d158" },
      () => {
        state.timer = { ...state.timer, status: "running", endMs: ctx.nowMs + state.timer.remainingMs };
      },
    );
}

export function buildClock(scene: Scene, ctx: Ctx): void {
  const ui = clockUi(ctx.state);
  appFrame(scene, ctx, ctx.theme.bg);
  if (ui.tab === "world") world(scene, ctx);
  else if (ui.tab === "alarm") alarm(scene, ctx);
  else if (ui.tab === "stopwatch") stopwatchTab(scene, ctx);
  else timer(scene, ctx, ui);
  const tabs = TABS.map((tab) => ({ id: tab.id, label: ctx.s[tab.key], glyph: glyphs[tab.id] }));
  tabBar(
    scene,
    ctx,
    tabs,
    ui.tab,
    (id) => {
      ui.tab = id;
    },
    "clock.tab",
  );
  appFinish(scene, ctx);
}
