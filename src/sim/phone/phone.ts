import type { FontBook } from "../../shared/fonts.js";
import type { RawImage } from "../../shared/image.js";
import { IPHONE_61, type PhoneGeometry } from "../../shared/phone-model.js";
import type { Clock } from "../../util/clock.js";
import { PiclawError } from "../../util/errors.js";
import type { ScreenElement, ScreenSource, TouchEvent } from "../types.js";
import { buildApp } from "./apps/registry.js";
import type { Ctx, Nav } from "./context.js";
import { GESTURE_THRESHOLDS as T } from "./gesture-thresholds.js";
import { type Gesture, GestureRecognizer, type SwipeGesture } from "./gestures.js";
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
import { contains, rect } from "./svg.js";
import { DARK, LIGHT } from "./theme.js";
import { wallTime } from "./time-format.js";
import { TouchLog, type TouchReport } from "./touch-log.js";

/** A message that arrives on the phone at `atMs` (clock time), as if sent by `from`. */
export interface ScheduledNotification {
  atMs: number;
  app: "messages";
  from: string;
  text: string;
}

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
}

/** Ground truth for tests and benchmarks; never shown to the agent. */
export interface PhoneTruth {
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

/** How long a message banner stays on screen. */
export const BANNER_MS = 5000;

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
  private readonly pending: ScheduledNotification[];
  private nextNotification = 0;
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
    for (const n of opts.notifications ?? [])
      if (n.app !== "messages" || !Number.isFinite(n.atMs))
        throw new PiclawError(
          "SIM_PHONE_NOTIFICATION",
          'notifications need app "messages" and a finite atMs',
          { from: n.from },
        );
    this.geometry = opts.geometry ?? IPHONE_61;
    this.#passcode = opts.passcode;
    this.clock = opts.clock;
    this.fonts = opts.fonts;
    this.locale = opts.locale;
    this.autoLockMs = opts.autoLockMs ?? 0;
    this.utcOffsetMinutes = opts.utcOffsetMinutes ?? 0;
    this.pending = [...(opts.notifications ?? [])].sort((a, b) => a.atMs - b.atMs);
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
    const now = this.advance();
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
  private advance(): number {
    const now = this.clock.now();
    const s = this.state;
    for (;;) {
      const n = this.pending[this.nextNotification];
      const lockAt =
        this.autoLockMs > 0 && s.screenOn ? s.lastActivityMs + this.autoLockMs : Number.POSITIVE_INFINITY;
      const nAt = n ? n.atMs : Number.POSITIVE_INFINITY;
      if (Math.min(lockAt, nAt) > now) break;
      this.rev++;
      if (lockAt <= nAt) this.sleep();
      else if (n) {
        this.nextNotification++;
        this.deliver(n);
      }
    }
    const held = this.recognizer.poll(now);
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

  private deliver(n: ScheduledNotification): void {
    const s = this.state;
    let thread = s.threads.find((t) => t.name === n.from);
    if (!thread) {
      thread = { id: `t${s.threads.length}`, name: n.from, messages: [], unread: 0 };
      s.threads.push(thread);
    }
    thread.messages.push({ fromMe: false, text: n.text, atMs: n.atMs });
    const reading =
      s.screenOn &&
      !s.locked &&
      !s.switcher &&
      s.foreground === "messages" &&
      s.ui.messages?.threadId === thread.id;
    if (reading) return;
    thread.unread++;
    if (!s.screenOn) {
      s.screenOn = true; // like iOS, a new message lights up the lock screen
      s.lastActivityMs = n.atMs;
    }
    if (!s.locked)
      s.banner = { threadId: thread.id, from: n.from, text: n.text, untilMs: n.atMs + BANNER_MS };
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
    } else this.swipe(g, scene);
    this.rev++;
  }

  private swipe(g: SwipeGesture, scene: Scene): void {
    const s = this.state;
    const upMm = -g.dyMm;
    if (g.edge === "bottom" && g.direction === "up" && upMm >= T.homeSwipeMinMm) {
      if (s.locked) {
        if (s.lockView === "lock") this.nav.showPasscode();
        return;
      }
      const paused = g.holdMs >= T.switcherHoldMs && g.start.yMm - g.holdAt.yMm >= T.switcherMinUpMm;
      if (paused) {
        s.switcher = true;
        s.switcherScroll = 0;
      } else this.nav.goHome();
      return;
    }
    if (g.edge === "left" && g.direction === "right" && !s.locked) {
      const far =
        g.dxMm >= T.backSwipeMinFraction * this.geometry.glassMm.width ||
        (g.dxMm >= T.backFlickMinMm && g.releaseVxMmS >= T.flickMinSpeedMmS);
      if (far && this.nav.back()) return;
    }
    const el = scene.hit(g.start.x, g.start.y, "onSwipe");
    if (el?.onSwipe?.(g)) return;
    const axis = g.direction === "up" || g.direction === "down" ? "y" : "x";
    const region = [...scene.scrolls]
      .reverse()
      .find((r) => r.axis === axis && contains(r.rect, g.start.x, g.start.y));
    if (!region) return;
    const moved = axis === "y" ? -g.dyMm : -g.dxMm;
    const v = axis === "y" ? -g.releaseVyMmS : -g.releaseVxMmS;
    const momentum = Math.abs(v) >= T.flickMinSpeedMmS ? (v * T.scrollMomentumMs) / 1000 : 0;
    region.scrollBy((moved + momentum) * this.ptPerMm);
  }
}
