import type { ScreenTouch } from "../calibration/agent.js";
import type { Clock } from "../util/clock.js";
import { PiclawError } from "../util/errors.js";

/**
 * The bridge's in-memory state, without HTTP: what the page should show (clipboard text, a pattern),
 * what it reported (touches, screenshots), and the waiters on both sides. Everything the page polls
 * for carries a `version` that grows on every change, so a long-poll returns as soon as there is news.
 * Only `nextScreenshot`/`awaitClipboard`/`awaitDisplay`/`waitForChange` start timers; `close()` ends
 * them all.
 */

export type ClipboardState = "queued" | "shown" | "copied" | "superseded";
export type CopyMethod = "auto" | "tap";

/** Clipboard text on its way to the phone. */
export interface ClipboardItem {
  id: number;
  /** Characters, not the text: the text itself is never logged or returned in status. */
  length: number;
  queuedAtMs: number;
  state: ClipboardState;
  /** How the page put it on the clipboard: by itself (`auto`) or after a tap on its Copy button. */
  copiedBy: CopyMethod | null;
}

/** What the page shows over everything: an SVG body in a `viewBox`, or nothing. */
export interface DisplayCommand {
  id: number;
  svg: string | null;
  viewBox: { width: number; height: number } | null;
  /** The page confirmed it shows this command. */
  acked: boolean;
}

export type ImageType = "png" | "jpeg";

/** One uploaded screenshot (the newest is kept in memory). */
export interface BridgeScreenshot {
  bytes: Buffer;
  type: ImageType;
  receivedAtMs: number;
}

/** The page's view of the state (the long-poll response). */
export interface PageView {
  version: number;
  clipboard: { id: number; text: string; state: ClipboardState } | null;
  display: { id: number; svg: string | null; viewBox: { width: number; height: number } | null };
}

const MAX_TOUCHES = 2000;

interface Waiter<T> {
  resolve(value: T): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

export class BridgeState {
  private version = 1;
  private nextId = 1;
  private clipboardItem: (ClipboardItem & { text: string }) | null = null;
  private display: DisplayCommand = { id: 0, svg: null, viewBox: null, acked: true };
  private readonly touches: ScreenTouch[] = [];
  private latestShot: (BridgeScreenshot & { seq: number }) | null = null;
  private shotSeq = 0;
  private readonly changeWaiters = new Set<Waiter<void>>();
  private readonly shotWaiters = new Set<Waiter<BridgeScreenshot> & { afterSeq: number; sinceMs: number }>();
  private readonly clipWaiters = new Set<Waiter<ClipboardItem> & { id: number; until: "shown" | "copied" }>();
  private readonly displayWaiters = new Set<Waiter<void> & { id: number }>();
  private closed = false;

  constructor(private readonly clock: Clock) {}

  view(): PageView {
    const c = this.clipboardItem;
    return {
      version: this.version,
      clipboard: c && c.state !== "copied" ? { id: c.id, text: c.text, state: c.state } : null,
      display: { id: this.display.id, svg: this.display.svg, viewBox: this.display.viewBox },
    };
  }

  /** Resolves when the version passes `since`, or after `waitMs` (whichever is first). */
  waitForChange(since: number, waitMs: number): Promise<void> {
    if (this.version > since || this.closed || waitMs <= 0) return Promise.resolve();
    return this.wait(this.changeWaiters, waitMs, () => undefined, {});
  }

  // ---- clipboard ------------------------------------------------------------------------------

  /** Make `text` the pending clipboard text; it replaces any text not yet copied (a clipboard holds one). */
  queueClipboard(text: string): ClipboardItem {
    const previous = this.clipboardItem;
    if (previous && previous.state !== "copied") {
      previous.state = "superseded";
      this.settleClipWaiters(previous);
    }
    const item = { id: this.nextId++, text, length: text.length, queuedAtMs: this.clock.now() };
    this.clipboardItem = { ...item, state: "queued", copiedBy: null };
    this.bump();
    return publicClip(this.clipboardItem);
  }

  clipboard(): ClipboardItem | null {
    return this.clipboardItem ? publicClip(this.clipboardItem) : null;
  }

  /** The page reports it shows the text (`shown`) or put it on the clipboard (`copied`). */
  ackClipboard(id: number, state: "shown" | "copied", how: CopyMethod | null): boolean {
    const item = this.clipboardItem;
    if (!item || item.id !== id || item.state === "superseded" || item.state === "copied") return false;
    item.state = state;
    if (state === "copied") {
      item.copiedBy = how ?? "tap";
      this.bump();
    }
    this.settleClipWaiters(item);
    return true;
  }

  /** Resolves when item `id` reaches `until` (copied counts as shown); rejects on timeout or supersession. */
  awaitClipboard(id: number, until: "shown" | "copied", timeoutMs: number): Promise<ClipboardItem> {
    const item = this.clipboardItem;
    if (!item || item.id !== id || item.state === "superseded") return Promise.reject(superseded(id));
    if (reached(item.state, until)) return Promise.resolve(publicClip(item));
    return this.wait(this.clipWaiters, timeoutMs, () => clipTimeout(until, timeoutMs), { id, until });
  }

  // ---- display --------------------------------------------------------------------------------

  /** Ask the page to show `svg` (null: nothing); returns the command id to await. */
  setDisplay(svg: string | null, viewBox: { width: number; height: number } | null): number {
    if (svg === null && this.display.svg === null) return this.display.id;
    this.display = { id: this.nextId++, svg, viewBox, acked: false };
    this.bump();
    return this.display.id;
  }

  currentDisplay(): DisplayCommand {
    return { ...this.display };
  }

  ackDisplay(id: number): boolean {
    if (this.display.id !== id) return false;
    this.display.acked = true;
    for (const w of this.displayWaiters) if (w.id === id) this.settle(this.displayWaiters, w, undefined);
    return true;
  }

  /** Resolves when the page confirms display command `id`; rejects when replaced or on timeout. */
  awaitDisplay(id: number, timeoutMs: number): Promise<void> {
    if (this.display.id !== id) return Promise.reject(displayReplaced(id));
    if (this.display.acked) return Promise.resolve();
    return this.wait(this.displayWaiters, timeoutMs, () => displayTimeout(timeoutMs), { id });
  }

  // ---- touches --------------------------------------------------------------------------------

  addTouches(touches: readonly ScreenTouch[]): void {
    this.touches.push(...touches);
    if (this.touches.length > MAX_TOUCHES) this.touches.splice(0, this.touches.length - MAX_TOUCHES);
  }

  touchesSince(ms: number): ScreenTouch[] {
    return this.touches.filter((t) => t.tMs >= ms).sort((a, b) => a.tMs - b.tMs);
  }

  // ---- screenshots ----------------------------------------------------------------------------

  addScreenshot(bytes: Buffer, type: ImageType): BridgeScreenshot {
    const shot = { bytes, type, receivedAtMs: this.clock.now(), seq: ++this.shotSeq };
    this.latestShot = shot;
    const out = publicShot(shot);
    for (const w of this.shotWaiters) this.settle(this.shotWaiters, w, out);
    return out;
  }

  latestScreenshot(): BridgeScreenshot | null {
    return this.latestShot ? publicShot(this.latestShot) : null;
  }

  /**
   * The next upload. Without `sinceMs`, only one that arrives after this call; with it, also the newest
   * upload already received at or after `sinceMs` (mark the time, trigger the screenshot, then wait).
   */
  nextScreenshot(timeoutMs: number, sinceMs?: number): Promise<BridgeScreenshot> {
    if (this.closed) return Promise.reject(stopped());
    const latest = this.latestShot;
    if (sinceMs !== undefined && latest && latest.receivedAtMs >= sinceMs)
      return Promise.resolve(publicShot(latest));
    return this.wait(this.shotWaiters, timeoutMs, () => shotTimeout(timeoutMs), {
      afterSeq: this.shotSeq,
      sinceMs: sinceMs ?? Number.POSITIVE_INFINITY,
    });
  }

  /** End every wait: long-polls return, awaiting callers get BRIDGE_STOPPED. */
  close(): void {
    this.closed = true;
    for (const w of this.changeWaiters) this.settle(this.changeWaiters, w, undefined);
    for (const set of [this.shotWaiters, this.clipWaiters, this.displayWaiters] as Set<Waiter<never>>[])
      for (const w of set) {
        clearTimeout(w.timer);
        set.delete(w);
        w.reject(stopped());
      }
  }

  private bump(): void {
    this.version++;
    for (const w of this.changeWaiters) this.settle(this.changeWaiters, w, undefined);
  }

  private settleClipWaiters(item: ClipboardItem): void {
    for (const w of this.clipWaiters) {
      if (w.id !== item.id) continue;
      if (item.state === "superseded") {
        clearTimeout(w.timer);
        this.clipWaiters.delete(w);
        w.reject(superseded(item.id));
      } else if (reached(item.state, w.until)) this.settle(this.clipWaiters, w, publicClip(item));
    }
  }

  private wait<T, Extra extends object>(
    set: Set<Waiter<T> & Extra>,
    timeoutMs: number,
    onTimeout: () => Error | undefined,
    extra: Extra,
  ): Promise<T> {
    if (this.closed) return Promise.reject(stopped());
    return new Promise<T>((resolve, reject) => {
      const waiter = {
        ...extra,
        resolve,
        reject,
        timer: setTimeout(() => {
          set.delete(waiter);
          const err = onTimeout();
          if (err) reject(err);
          else resolve(undefined as T);
        }, timeoutMs),
      } as Waiter<T> & Extra;
      set.add(waiter);
    });
  }

  private settle<T>(set: Set<Waiter<T>>, waiter: Waiter<T>, value: T): void {
    clearTimeout(waiter.timer);
    set.delete(waiter);
    waiter.resolve(value);
  }
}

function reached(state: ClipboardState, until: "shown" | "copied"): boolean {
  return state === "copied" || (until === "shown" && state === "shown");
}

function publicClip(item: ClipboardItem): ClipboardItem {
  return {
    id: item.id,
    length: item.length,
    queuedAtMs: item.queuedAtMs,
    state: item.state,
    copiedBy: item.copiedBy,
  };
}

function publicShot(shot: BridgeScreenshot): BridgeScreenshot {
  return { bytes: shot.bytes, type: shot.type, receivedAtMs: shot.receivedAtMs };
}

function stopped(): PiclawError {
  return new PiclawError("BRIDGE_STOPPED", "the phone bridge stopped");
}

function superseded(id: number): PiclawError {
  return new PiclawError(
    "BRIDGE_CLIPBOARD_SUPERSEDED",
    "newer clipboard text replaced this one before the phone took it",
    { id },
  );
}

function clipTimeout(until: "shown" | "copied", timeoutMs: number): PiclawError {
  const what = until === "shown" ? "show the clipboard text" : "copy the clipboard text";
  return new PiclawError(
    "BRIDGE_NOT_CONNECTED",
    `the phone's bridge page did not ${what} within ${timeoutMs} ms: is the page open on the phone (and paired)?`,
    { timeoutMs },
  );
}

function displayReplaced(id: number): PiclawError {
  return new PiclawError("BRIDGE_DISPLAY_REPLACED", "a newer display command replaced this one", { id });
}

function displayTimeout(timeoutMs: number): PiclawError {
  return new PiclawError(
    "BRIDGE_NOT_CONNECTED",
    `the phone's bridge page did not confirm the pattern within ${timeoutMs} ms: is the page open on the phone (and paired)?`,
    { timeoutMs },
  );
}

function shotTimeout(timeoutMs: number): PiclawError {
  return new PiclawError(
    "BRIDGE_SCREENSHOT_TIMEOUT",
    `no screenshot arrived from the phone within ${timeoutMs} ms (is the screenshot Shortcut set up to upload to the bridge?)`,
    { timeoutMs },
  );
}
