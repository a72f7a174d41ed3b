import type { Locale, Strings } from "./strings.js";

/** Calendar fields of an instant as the phone's wall clock shows it (fixed UTC offset, no DST). */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  weekday: number;
  hours: number;
  minutes: number;
  seconds: number;
}

export function wallTime(nowMs: number, utcOffsetMinutes: number): WallTime {
  const d = new Date(nowMs + utcOffsetMinutes * 60_000);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth(),
    day: d.getUTCDate(),
    weekday: d.getUTCDay(),
    hours: d.getUTCHours(),
    minutes: d.getUTCMinutes(),
    seconds: d.getUTCSeconds(),
  };
}

const pad = (v: number): string => String(v).padStart(2, "0");

/** Status-bar / lock-screen time: 12-hour without AM/PM in English, 24-hour in Chinese (as iOS). */
export function clockTime(t: Pick<WallTime, "hours" | "minutes">, locale: Locale): string {
  const h = locale === "en" ? t.hours % 12 || 12 : t.hours;
  return `${h}:${pad(t.minutes)}`;
}

/** Lock-screen date: "Monday, January 5" / "1月5日 星期一". */
export function longDate(t: WallTime, locale: Locale, s: Strings): string {
  const day = s[`day.${t.weekday}` as keyof Strings];
  const month = s[`month.${t.month}` as keyof Strings];
  return locale === "en" ? `${day}, ${month} ${t.day}` : `${month}${t.day}日 ${day}`;
}

/** Countdown text: m:ss zero-padded to mm:ss, or h:mm:ss from one hour. */
export function countdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  return h > 0 ? `${h}:${pad(m)}:${pad(sec)}` : `${pad(m)}:${pad(sec)}`;
}

/** Stopwatch text: mm:ss.cc */
export function stopwatch(ms: number): string {
  const cs = Math.floor(ms / 10);
  return `${pad(Math.floor(cs / 6000))}:${pad(Math.floor(cs / 100) % 60)}.${pad(cs % 100)}`;
}
