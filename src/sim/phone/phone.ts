import type { FontBook } from "../../shared/fonts.js";
import type { RawImage } from "../../shared/image.js";
import { IPHONE_61, type PhoneGeometry } from "../../shared/phone-model.js";
import type { Clock } from "../../util/clock.js";
import { PiclawError } from "../../util/errors.js";
import type { ScreenElement, ScreenSource, TouchEvent } from "../types.js";
import { buildApp } from "./apps/registry.js";
import type { Ctx, Nav } from "./context.js";
import { type Gesture, GestureRecognizer } from "./gestures.js";
import { deliver, Inbox, type ScheduledNotification } from "./inbox.js";
import { createNav } from "./navigation.js";
import { encodePng, rasterize, svgDocument } from "./render.js";
import { Scene } from "./scene.js";
import { timerDoneBanner } from "./screens/alerts.js";
import { banner } from "./screens/chrome.js";
import { buildHome } from "./screens/home.js";
import { buildLock, buildPasscode } from "./screens/lock.js";
import { buildSwitcher } from "./screens/switcher.js";
import { type AppId, initialState, type PhoneScreen, type PhoneState } from "./state.js";
import { STRINGS } from "./strings.js";
import { summarize } from "./summary.js";
import { rect } from "./svg.js";
import { systemSwipe } from "./system-swipe.js";
import { DARK, LIGHT } from "./theme.js";
import { wallTime } from "./time-format.js";
import { TouchLog, type TouchReport } from "./touch-log.js";
import { type InputTruth, inputTruth } from "./truth.js";

export interface SimPhoneOptions {
  clock: Clock;
  fonts: FontBook;
  locale: "en" | "zh";
  /** 4–6 digits. Never reported in errors, logs or truth(). */
  passcode: string;
  geometry?: PhoneGeometry;
  notifications?: ScheduledNotification[];
  /** Screen turns off and locks after this long without touches; 0 = never (default). */
  autoLockMs?: number;
  /** Wall-clock offset from UTC the phone displays (minutes, no DST). Default 0. */
  utcOffsetMinutes?: number;
  /**
   * Delivers the touches due by `nowMs` and returns the time up to which the touch stream is final
   * (the gantry's `settledUntil`). A hold is judged up to there: the digitizer sees the stylus on the
   * firmware's timeline, which does not stretch when the simulator's event loop runs late. Default:
   * every touch is delivered as it happens (`nowMs`).
   */
  touchesUntil?: (nowMs: number) => number;
}

export { BANNER_MS, type ScheduledNotification } from "./inbox.js";

/** Ground truth for tests and benchmarks; never shown to the agent. */
export interface PhoneTruth extends InputTruth {
  screen: PhoneScreen;
  /** Foreground app when one is on screen (unlocked, not in the switcher), else null. */
  app: AppId | null;
  locked: boolean;
  screenOn: boolean;
  /** Human summary, English, e.g. "Clock: timer running, 09:58 left". */
  state: string;
  /** Every visible element, in drawing order (later = on top). */
  elements: ScreenElement[];
}

/**
 * A simulated iPhone: real state (lock, apps, timers, messages, settings), drawn to pixels through an
 * SVG scene and driven only by digitizer touches, the side button and an injected clock. Time-based
 * behaviour is evaluated lazily from `clock.now()` on every call, so there are no timers to leak.
 */
export class SimPhone implements ScreenSource {
  readonly geometry: PhoneGeometry;
  readonly #passcode: string;
  private readonly clock: Clock;
  private readonly fonts: FontBook;
  private readonly locale: "en" | "zh";
  private readonly autoLockMs: number;
  private readonly utcOffsetMinutes: number;
  private readonly touchesUntil: (nowMs: number) => number;
  private readonly inbox = new Inbox();
  private readonly startMs: number;
  private readonly state: PhoneState;
  private readonly recognizer: GestureRecognizer;
  private readonly nav: Nav;
  private readonly ptPerMm: number;
  private ignoringStroke = false;
  private longPressHandled = false;
  private rev = 0;
  private memo: { key: string; scene: Scene; svg: string } | null = null;
  private lastSvg = "";
  private visualVersion = 0;
  private cache: { svg: string; image: RawImage } | null = null;
  private last: Gesture | null = null;
  private pattern: string | null = null;
  private readonly touchLog: TouchLog;

  constructor(opts: SimPhoneOptions) {
    if (!/^\d{4,6}$/.test(opts.passcode))
      throw new PiclawError("SIM_PHONE_PASSCODE", "passcode must be 4 to 6 digits", {
        length: opts.passcode.length,
      });
    this.geometry = opts.geometry ?? IPHONE_61;
    this.#passcode = opts.passcode;
    this.clock = opts.clock;
    this.fonts = opts.fonts;
    this.locale = opts.locale;
    this.autoLockMs = opts.autoLockMs ?? 0;
    this.utcOffsetMinutes = opts.utcOffsetMinutes ?? 0;
    this.touchesUntil = opts.touchesUntil ?? ((nowMs) => nowMs);
    this.inbox.add(opts.notifications ?? []);
    this.startMs = opts.clock.now();
    this.state = initialState(opts.locale, opts.clock.now());
    this.ptPerMm = this.geometry.screenPt.width / this.geometry.glassMm.width;
    this.touchLog = new TouchLog(this.geometry.screenPx);
    const k = this.ptPerMm;
    const ky = this.geometry.screenPt.height / this.geometry.glassMm.height;
    this.recognizer = new GestureRecognizer(this.geometry.glassMm, (x, y) => ({ x: x * k, y: y * ky }));
    const passcode = this.#passcode;
    this.nav = createNav(this.state, {
      passcodeLength: passcode.length,
      matches: (code) => code === passcode,
      now: () => this.clock.now(),
    });
  }

  /** Bumps whenever what the screen shows changes (compare to skip re-rendering). */
  get version(): number {
    this.frame(this.advance());
    return this.visualVersion;
  }

  get clipboard(): string | null {
    return this.state.clipboard;
  }

  set clipboard(text: string | null) {
    this.state.clipboard = text;
    this.rev++;
  }

  /** The last gesture the phone recognised (diagnostics). */
  get lastGesture(): Gesture | null {
    return this.last;
  }

  /** Digitizer input: one down/move/up sample in glass millimetres. */
  touch(ev: TouchEvent): void {
    // Holds are judged at the event's own time (`feed`), not at whenever it is delivered.
    const now = this.advance(false);
    const { width, height } = this.geometry.glassMm;
    if (ev.type === "down" && (ev.xMm < 0 || ev.yMm < 0 || ev.xMm > width || ev.yMm > height)) {
      this.ignoringStroke = true; // off the active area: the digitizer never sees this stroke
      return;
    }
    if (ev.type === "down") {
      this.touchLog.record(ev.xMm / width, ev.yMm / height, ev.tMs);
      // The full-screen calibration page owns every stroke that starts on it: nothing beneath reacts.
      if (this.pattern !== null) this.ignoringStroke = true;
    }
    if (this.ignoringStroke) {
      if (ev.type === "up") this.ignoringStroke = false;
      return;
    }
    const clamped = {
      ...ev,
      xMm: Math.min(width, Math.max(0, ev.xMm)),
      yMm: Math.min(height, Math.max(0, ev.yMm)),
    };
    if (this.state.screenOn)
      this.state.lastActivityMs = Math.max(this.state.lastActivityMs, Math.min(ev.tMs, now));
    for (const g of this.recognizer.feed(clamped)) this.dispatch(g, now);
    this.rev++;
  }

  /**
   * Show a calibration pattern over everything (as the phone-side calibration page does): `svgBody` is
   * SVG drawn in screen points (the `screenPt` viewBox); null removes it. While it shows, touches are
   * still reported (`touchReports`) but swallowed, so no app, system gesture or lock screen reacts.
   */
  showPattern(svgBody: string | null): void {
    this.pattern = svgBody;
    this.rev++;
  }

  /** Every touch-down the digitizer delivered at or after `sinceMs` (phone clock), oldest first. */
  touchReports(sinceMs: number): TouchReport[] {
    return this.touchLog.since(sinceMs);
  }

  /** A message that will arrive at `n.atMs` (e.g. a contact's reply some seconds from now). */
  schedule(n: ScheduledNotification): void {
    this.inbox.add([n]);
    this.rev++;
  }

  /** Side button: screen off (and lock) when on; wake to the lock screen when off. */
  pressSideButton(): void {
    const now = this.advance();
    const s = this.state;
    if (s.screenOn) this.sleep();
    else {
      s.screenOn = true;
      s.lastActivityMs = now;
    }
    this.rev++;
  }

  async renderScreen(): Promise<RawImage> {
    const { svg } = this.frame(this.advance());
    if (this.cache?.svg === svg) return this.cache.image;
    const image = await rasterize(svg, this.geometry);
    this.cache = { svg, image };
    return image;
  }

  /** PNG of exactly the screen pixels. */
  async screenshot(): Promise<Buffer> {
    return encodePng(await this.renderScreen());
  }

  truth(): PhoneTruth {
    const now = this.advance();
    const { scene } = this.frame(now);
    const s = this.state;
    const screen = this.screen();
    return {
      screen,
      app: screen === "app" ? s.foreground : null,
      locked: s.locked,
      screenOn: s.screenOn,
      state: summarize(this.state, screen, now, {
        passcodeLength: this.#passcode.length,
        utcOffsetMinutes: this.utcOffsetMinutes,
        locale: this.locale,
      }),
      elements: scene.truth(),
      ...inputTruth(s, screen, this.startMs),
    };
  }

  private screen(): PhoneScreen {
    const s = this.state;
    if (!s.screenOn) return "off";
    if (s.locked) return s.lockView === "passcode" ? "passcode" : "lock";
    if (s.switcher) return "switcher";
    return s.foreground ? "app" : "home";
  }

  /** Catch up with the clock: notifications and auto-lock in time order, then hold-based gestures. */
  private advance(pollHolds = true): number {
    const now = this.clock.now();
    const s = this.state;
    for (;;) {
      const lockAt =
        this.autoLockMs > 0 && s.screenOn ? s.lastActivityMs + this.autoLockMs : Number.POSITIVE_INFINITY;
      const nAt = this.inbox.nextAt;
      if (Math.min(lockAt, nAt) > now) break;
      this.rev++;
      const n = lockAt <= nAt ? undefined : this.inbox.take();
      if (n) deliver(s, n);
      else this.sleep();
    }
    if (!pollHolds) return now;
    const held = this.recognizer.poll(Math.min(now, this.touchesUntil(now)));
    for (const g of held) this.dispatch(g, now);
    if (held.length) this.rev++;
    return now;
  }

  private sleep(): void {
    const s = this.state;
    s.screenOn = false;
    s.locked = true;
    s.lockView = "lock";
    s.entered = "";
    s.banner = null;
    s.switcher = false;
  }

  private ctx(now: number): Ctx {
    return {
      fonts: this.fonts,
      s: STRINGS[this.locale],
      locale: this.locale,
      theme: this.state.toggles.darkMode ? DARK : LIGHT,
      state: this.state,
      nowMs: now,
      wall: wallTime(now, this.utcOffsetMinutes),
      utcOffsetMinutes: this.utcOffsetMinutes,
      W: this.geometry.screenPt.width,
      H: this.geometry.screenPt.height,
      ptPerMm: this.ptPerMm,
      nav: this.nav,
      passcodeLength: this.#passcode.length,
    };
  }

  /** The scene for the current state at `now` (memoised), and the visual version it implies. */
  private frame(now: number): { scene: Scene; svg: string } {
    const key = `${this.rev}@${now}`;
    if (this.memo?.key !== key) {
      const ctx = this.ctx(now);
      const s = this.state;
      const scene = new Scene(this.fonts, ctx.W, ctx.H);
      if (this.pattern !== null) scene.draw(this.pattern);
      else if (!s.screenOn) scene.draw(rect({ x: 0, y: 0, w: ctx.W, h: ctx.H }, "#000000"));
      else if (s.locked) (s.lockView === "passcode" ? buildPasscode : buildLock)(scene, ctx);
      else if (s.switcher) buildSwitcher(scene, ctx);
      else if (s.foreground) buildApp(scene, ctx, s.foreground);
      else buildHome(scene, ctx);
      if (s.screenOn && !s.locked && this.pattern === null) {
        banner(scene, ctx);
        timerDoneBanner(scene, ctx);
      }
      this.memo = { key, scene, svg: svgDocument(scene.body(), this.geometry) };
    }
    if (this.memo.svg !== this.lastSvg) {
      this.lastSvg = this.memo.svg;
      this.visualVersion++;
    }
    return this.memo;
  }

  private dispatch(g: Gesture, now: number): void {
    const s = this.state;
    if (!s.screenOn) {
      if (g.kind === "tap") {
        s.screenOn = true; // tap to wake
        s.lastActivityMs = now;
      }
      return;
    }
    this.last = g;
    const { scene } = this.frame(now);
    if (g.kind === "tap") {
      const el = scene.hit(g.at.x, g.at.y, "onTap");
      if (el?.onTap) el.onTap(g);
      else scene.onTapEmpty?.();
    } else if (g.kind === "longPress") {
      if (g.phase === "began") {
        const el = scene.hit(g.at.x, g.at.y, "onLongPress");
        this.longPressHandled = el?.onLongPress?.() ?? false;
      } else if (!this.longPressHandled) {
        // Like UIButton, lifting after a long hold that nothing claimed still activates what is under the finger.
        this.rev++;
        this.dispatch({ kind: "tap", at: g.at, count: 1, tMs: g.tMs }, now);
        this.last = g; // diagnostics report what was recognised (a long press), not the activation
      }
    } else
      systemSwipe(g, scene, {
        state: s,
        nav: this.nav,
        geometry: this.geometry,
        ptPerMm: this.ptPerMm,
      });
    this.rev++;
  }
}
