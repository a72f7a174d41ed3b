import type { FontBook } from "../../shared/fonts.js";
import { type Mat3, mat3Mul } from "../../shared/homography.js";
import { DEFAULT_SIM_CAMERA_OPTIONS, type SimCameraOptions } from "../../sim/camera/options.js";
import { SimCamera } from "../../sim/camera/sim-camera.js";
import { Finger } from "../../sim/phone/finger.js";
import { SimPhone } from "../../sim/phone/index.js";
import type { PhonePose } from "../../sim/pose.js";
import type { ScreenElement } from "../../sim/types.js";
import { ManualClock } from "../../util/clock.js";
import { type Random, seededRandom } from "../../util/random.js";
import { harshOptics } from "./harsh-optics.js";

/**
 * Generated evaluation screens for the vision pipeline: the simulated phone in many states (lock,
 * keypad, both home pages, Clock tabs, a running timer, Messages list and thread, Settings, Weather,
 * scrolled lists, a message banner, the app switcher), in English and Chinese, photographed by the
 * simulated camera at random poses with clean, glare, defocus, dim and noisy variants. Deterministic
 * for a seed. Used by the accuracy test and the bench. `harsh` (`harsh-optics.ts`) is never drawn by
 * `evalScenarios`: the bench re-shoots the same screens with it (`withVariant`) for a row of its own.
 */
export type CameraVariant = "clean" | "glare" | "defocus" | "dim" | "noisy" | "harsh";

export interface EvalScenario {
  index: number;
  name: string;
  locale: "en" | "zh";
  variant: CameraVariant;
  pose: PhonePose;
}

export interface EvalCapture {
  scenario: EvalScenario;
  phone: SimPhone;
  /** Camera JPEG. */
  frame: Buffer;
  /** The true screen-fraction → camera-pixel map (what calibration estimates). */
  screenToCamera: Mat3;
  /** Ground truth: visible elements. */
  elements: ScreenElement[];
  /** The phone's own screenshot (PNG). */
  screenshot: Buffer;
}

const PASSCODE = "2580";
const STATES = [
  "lock",
  "keypad",
  "home-1",
  "home-2",
  "clock-world",
  "clock-timer",
  "clock-timer-running",
  "messages-list",
  "messages-thread",
  "settings",
  "settings-scrolled",
  "weather",
  "weather-scrolled",
  "home-banner",
  "switcher",
] as const;
const VARIANTS: CameraVariant[] = ["clean", "glare", "defocus", "dim", "noisy"];

export function evalScenarios(count: number, seed = 1): EvalScenario[] {
  const r = seededRandom(seed);
  const between = (a: number, b: number): number => a + (b - a) * r.next();
  return Array.from({ length: count }, (_, index) => ({
    index,
    name: STATES[index % STATES.length] ?? "lock",
    // Alternate locales within each run of states so every state is seen in both.
    locale: Math.floor(index / STATES.length) % 2 === index % 2 ? "en" : "zh",
    variant: VARIANTS[index % VARIANTS.length] ?? "clean",
    pose: {
      centerXMm: 150 + between(-8, 8),
      centerYMm: 110 + between(-6, 6),
      rotationDeg: between(-10, 10),
      tiltXDeg: between(-1, 1),
      tiltYDeg: between(-1, 1),
    },
  }));
}

/** The same screens and poses shot with another camera variant (e.g. all of them under harsh optics). */
export function withVariant(scenarios: readonly EvalScenario[], variant: CameraVariant): EvalScenario[] {
  return scenarios.map((s) => ({ ...s, variant }));
}

/** Drive a fresh phone into the scenario's state. */
function drive(name: string, phone: SimPhone, finger: Finger, clock: ManualClock, r: Random): void {
  const g = phone.geometry.glassMm;
  const tap = (id: string): void => finger.tapId(id);
  /** A slow drag up the middle of the screen, between two fractions of its height. */
  const scrollUp = (fromY: number, toY: number): void =>
    finger.swipe(
      { x: g.width / 2, y: g.height * fromY },
      { x: g.width / 2, y: g.height * toY },
      { durationMs: 500 },
    );
  if (name === "lock") return;
  if (name === "keypad") {
    finger.homeSwipe();
    return;
  }
  finger.unlock(PASSCODE);
  switch (name) {
    case "home-2":
      finger.swipe({ x: g.width * 0.8, y: g.height * 0.5 }, { x: g.width * 0.15, y: g.height * 0.5 });
      return;
    case "clock-world":
      tap("home.icon.clock");
      return;
    case "clock-timer":
    case "clock-timer-running":
      tap("home.icon.clock");
      tap("clock.tab.timer");
      if (name === "clock-timer-running") {
        const start = phone.truth().elements.find((e) => /start/i.test(e.id));
        if (start) finger.tapId(start.id);
        clock.advance(1000 + Math.floor(r.next() * 60_000));
      }
      return;
    case "messages-list":
      tap("home.icon.messages");
      return;
    case "messages-thread":
      tap("home.icon.messages");
      tap(`messages.thread.t${Math.floor(r.next() * 4)}`);
      return;
    case "settings":
    case "settings-scrolled":
      tap("home.icon.settings");
      if (name === "settings-scrolled") scrollUp(0.75, 0.4);
      return;
    case "weather":
    case "weather-scrolled":
      tap("home.icon.weather");
      if (name === "weather-scrolled") scrollUp(0.8, 0.45);
      return;
    case "home-banner":
      clock.set(BANNER_AT_MS + 1500);
      return;
    case "switcher":
      tap("home.icon.weather");
      finger.homeSwipe();
      tap("home.icon.clock");
      finger.homeSwipe(600);
      return;
    default:
      return;
  }
}

const START_MS = Date.UTC(2026, 0, 5, 9, 41, 0);
const BANNER_AT_MS = START_MS + 120_000;

function cameraFor(variant: CameraVariant): SimCameraOptions {
  const d = DEFAULT_SIM_CAMERA_OPTIONS;
  switch (variant) {
    case "glare":
      return {
        ...d,
        glare: { xFrac: 0.45, yFrac: 0.4, radiusXFrac: 0.12, radiusYFrac: 0.09, intensity: 0.5 },
      };
    case "noisy":
      return { ...d, noise: 2.5 };
    case "harsh":
      return harshOptics(d);
    default:
      return d;
  }
}

/** Build the phone, drive it into the scenario and photograph it (`width`×`height` camera frame). */
export async function captureScenario(
  s: EvalScenario,
  fonts: FontBook,
  size: { width: number; height: number } = { width: 2304, height: 1296 },
): Promise<EvalCapture> {
  const clock = new ManualClock(START_MS);
  const phone = new SimPhone({
    clock,
    fonts,
    locale: s.locale,
    passcode: PASSCODE,
    notifications: [
      {
        atMs: BANNER_AT_MS,
        app: "messages",
        from: s.locale === "zh" ? "小王" : "Ann",
        text: s.locale === "zh" ? "中午一起吃饭吗？" : "Lunch at noon?",
      },
    ],
  });
  const finger = new Finger(phone, clock);
  drive(s.name, phone, finger, clock, seededRandom(1000 + s.index));
  const options = cameraFor(s.variant);
  const camera = new SimCamera({ source: phone, pose: s.pose, camera: options, seed: 7 + s.index });
  const view = camera.view(size.width, size.height);
  const inFocus = 1000 / Math.max(1, options.placement.heightMm - phone.geometry.body.thicknessMm);
  const frame = await camera.capture({
    ...size,
    ...(s.variant === "defocus" ? { lensPosition: inFocus + 0.35 } : {}),
    ...(s.variant === "dim" ? { shutterUs: 4000, gain: 1 } : {}),
  });
  const { glassMm } = phone.geometry;
  return {
    scenario: s,
    phone,
    frame,
    screenToCamera: mat3Mul(view.glassToPixel, [glassMm.width, 0, 0, 0, glassMm.height, 0, 0, 0, 1]),
    elements: phone.truth().elements,
    screenshot: await phone.screenshot(),
  };
}
