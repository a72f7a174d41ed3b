import type { FontBook } from "../../shared/fonts.js";
import type { PhoneGeometry } from "../../shared/phone-model.js";
import { type ScheduledNotification, SimPhone } from "../../sim/phone/index.js";
import type { ScreenElement } from "../../sim/types.js";
import { ManualClock } from "../../util/clock.js";
import type { Random } from "../../util/random.js";
import { chance, pick, randInt } from "./pick.js";

/**
 * Drives a fresh SimPhone through a random, seeded walk (unlock, dark mode, apps, taps, scrolls,
 * switcher, banners) so the detector trains on every kind of screen the simulated phone can show,
 * in both locales. Only the phone's public surface is used: digitizer touches, the side button and
 * the clock — exactly what the real rig can do.
 */

const SENDERS = ["Mom", "Alex Chen", "Work Team", "Jamie", "妈妈", "李强", "快递", "工作群", "Dr. Patel"];
const TEXTS = [
  "Running late, be there in 10",
  "Can you call me back?",
  "Your package has been delivered",
  "晚上一起吃饭吗？",
  "会议改到下午三点",
  "Don't forget the tickets!",
  "明天见",
  "Code 482913 is your verification code",
];

/** One walk's result: the phone (to render) and what it shows. */
export interface WalkedPhone {
  phone: SimPhone;
  locale: "en" | "zh";
}

class Driver {
  constructor(
    readonly phone: SimPhone,
    readonly clock: ManualClock,
  ) {}

  private event(type: "down" | "move" | "up", xMm: number, yMm: number): void {
    this.phone.touch({ type, xMm, yMm, tMs: this.clock.now() });
  }

  tapAt(xFrac: number, yFrac: number): void {
    const { width, height } = this.phone.geometry.glassMm;
    this.event("down", xFrac * width, yFrac * height);
    this.clock.advance(60);
    this.event("up", xFrac * width, yFrac * height);
    this.clock.advance(350);
  }

  tap(el: ScreenElement): void {
    this.tapAt((el.box[0] + el.box[2]) / 2, (el.box[1] + el.box[3]) / 2);
  }

  tapId(id: string): boolean {
    const el = this.find(id);
    if (el) this.tap(el);
    return el !== undefined;
  }

  find(id: string): ScreenElement | undefined {
    return this.phone.truth().elements.find((e) => e.id === id);
  }

  /** Straight stroke between two points in 0–1 screen fractions. */
  swipe(a: [number, number], b: [number, number], durationMs = 250, holdMs = 0): void {
    const { width, height } = this.phone.geometry.glassMm;
    this.event("down", a[0] * width, a[1] * height);
    const steps = 10;
    for (let i = 1; i <= steps; i++) {
      this.clock.advance(durationMs / steps);
      const f = i / steps;
      this.event("move", (a[0] + (b[0] - a[0]) * f) * width, (a[1] + (b[1] - a[1]) * f) * height);
    }
    this.clock.advance(holdMs);
    this.event("up", b[0] * width, b[1] * height);
    this.clock.advance(350);
  }

  homeSwipe(holdMs = 0): void {
    this.swipe([0.5, 0.995], [0.5, 0.6], holdMs ? 400 : 200, holdMs);
  }
}

function notifications(rng: Random, startMs: number): ScheduledNotification[] {
  const n = randInt(rng, 0, 4);
  return Array.from({ length: n }, (_, i) => ({
    // Early ones wait on the lock screen; later ones arrive mid-walk and show as banners.
    atMs: startMs + 1000 + i * 500 + (rng.next() < 0.5 ? rng.next() * 15_000 : 0),
    app: "messages" as const,
    from: pick(rng, SENDERS),
    text: pick(rng, TEXTS),
  }));
}

/** Tap random visible elements a few times (any app, any state), sometimes scroll or go back. */
function wander(d: Driver, rng: Random, steps: number): void {
  for (let i = 0; i < steps; i++) {
    const els = d.phone.truth().elements.filter((e) => !e.id.startsWith("status."));
    const r = rng.next();
    if (r < 0.2) {
      const x = 0.3 + rng.next() * 0.4;
      const up = chance(rng, 0.7);
      d.swipe([x, up ? 0.75 : 0.35], [x, up ? 0.35 : 0.75], 300);
    } else if (r < 0.3)
      d.swipe([0.01, 0.5], [0.8, 0.5], 250); // back
    else if (els.length) d.tap(pick(rng, els));
  }
}

/**
 * A phone in a random state. `rng` decides everything, so the same seed gives the same screen.
 * `geometry` may shrink `screenPx` to render training images at a smaller size.
 */
export function randomPhone(rng: Random, fonts: FontBook, geometry: PhoneGeometry): WalkedPhone {
  const locale = chance(rng, 0.5) ? "en" : "zh";
  const start = Date.UTC(
    2026,
    randInt(rng, 0, 11),
    randInt(rng, 1, 28),
    randInt(rng, 0, 23),
    randInt(rng, 0, 59),
  );
  const clock = new ManualClock(start);
  const passcode = String(randInt(rng, 1000, 9999));
  const phone = new SimPhone({
    clock,
    fonts,
    locale,
    passcode,
    geometry,
    notifications: notifications(rng, start),
    utcOffsetMinutes: pick(rng, [0, 60, 480, -300]),
  });
  const d = new Driver(phone, clock);
  clock.advance(randInt(rng, 0, 4000)); // lets some notifications arrive
  const end = rng.next();
  if (end < 0.1) return { phone, locale }; // lock screen (with notifications, if any arrived)
  d.homeSwipe();
  if (end < 0.17) {
    for (const digit of passcode.slice(0, randInt(rng, 0, 3))) d.tapId(`passcode.key.${digit}`);
    return { phone, locale };
  }
  for (const digit of passcode) d.tapId(`passcode.key.${digit}`);
  if (chance(rng, 0.45)) {
    d.tapId("home.icon.settings");
    for (let i = 0; i < 4 && !d.find("settings.toggle.darkMode"); i++) d.swipe([0.5, 0.8], [0.5, 0.3], 300);
    d.tapId("settings.toggle.darkMode");
    d.homeSwipe();
  }
  if (chance(rng, 0.25)) d.swipe([0.85, 0.5], [0.15, 0.5], 250); // home page 2
  if (end < 0.3) return { phone, locale };
  const apps = [
    "clock",
    "messages",
    "settings",
    "weather",
    "clock",
    "messages",
    "settings",
    "weather",
    "notes",
  ];
  if (!d.tapId(`home.icon.${pick(rng, apps)}`)) d.tapId("home.icon.contacts");
  wander(d, rng, randInt(rng, 0, 5));
  if (chance(rng, 0.12)) d.homeSwipe(600); // app switcher
  return { phone, locale };
}
