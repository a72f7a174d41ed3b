import type { ScreenTouch } from "../calibration/agent.js";
import { HttpService } from "../http/server.js";
import type { Logger } from "../log/logger.js";
import type { Clock } from "../util/clock.js";
import { PiclawError } from "../util/errors.js";
import { type BridgeConfig, bridgeFilePaths } from "./config.js";
import { type DeviceInfo, DeviceStore, type PairCode, PairCodeStore } from "./credentials.js";
import { BridgeApi } from "./http-api.js";
import { type BridgePage, loadBridgePage } from "./page.js";
import { type BridgeScreenshot, BridgeState, type ClipboardItem } from "./state.js";
import type { PageInfo } from "./wire.js";

export interface PhoneBridgeDeps {
  config: BridgeConfig;
  /** Where the device and pair-code files live (see `bridgeFilePaths`). */
  stateDir: string;
  log: Logger;
  clock: Clock;
  /** The page to serve (default: `assets/bridge/page.html`). */
  page?: BridgePage;
}

/** A snapshot for logs, `/healthz`-style endpoints and the agent (no secrets, no clipboard text). */
export interface BridgeStatus {
  url: string | null;
  pairedDevices: DeviceInfo[];
  /** When the pending pair code expires (ms since the epoch), or null. */
  pairCodeExpiresAtMs: number | null;
  page: {
    /** A long-poll is open, or the page asked within the last poll period. */
    connected: boolean;
    lastSeenMs: number | null;
    info: PageInfo | null;
  };
  clipboard: ClipboardItem | null;
  pattern: { showing: boolean; confirmed: boolean };
  latestScreenshot: { type: string; bytes: number; receivedAtMs: number } | null;
  touchCount: number;
}

/**
 * The phone-side bridge: serves the page the phone opens (own port, LAN-reachable) and is the rest of
 * PiClaw's handle on it. Clipboard text and patterns go to the page by its long-poll; screenshots and
 * touch reports come back by POST. Pairing codes come from `pairCode()` (also `piclaw bridge pair`,
 * from another process: the code is handed over through the state directory, hashed).
 *
 * Contract: `start()` listens and resolves with the URL; `stop()` closes the port and ends every wait
 * (waiters reject with BRIDGE_STOPPED). `pairCode()` works without `start()`; the rest needs it.
 */
export class PhoneBridge {
  private http: HttpService | null = null;
  private api: BridgeApi | null = null;
  private state: BridgeState | null = null;
  private url: string | null = null;
  private readonly devices: DeviceStore;
  private readonly pairCodes: PairCodeStore;

  constructor(private readonly deps: PhoneBridgeDeps) {
    const paths = bridgeFilePaths(deps.config, deps.stateDir);
    this.devices = new DeviceStore(paths.deviceFile, deps.clock);
    this.pairCodes = new PairCodeStore(paths.pairFile, deps.clock);
  }

  async start(): Promise<string> {
    if (this.url) return this.url;
    const { config, log, clock } = this.deps;
    const page = this.deps.page ?? (await loadBridgePage());
    const state = new BridgeState(clock);
    const api = new BridgeApi({
      config,
      state,
      devices: this.devices,
      pairCodes: this.pairCodes,
      page,
      log,
      clock,
    });
    const http = new HttpService({}, log, api.rawRoutes());
    this.url = await http.start({ host: config.host, port: config.port });
    this.http = http;
    this.api = api;
    this.state = state;
    log.info("bridge serving", { url: this.url, pairedDevices: this.devices.list().length });
    return this.url;
  }

  async stop(): Promise<void> {
    this.state?.close();
    await this.http?.stop();
    this.http = null;
    this.api = null;
    this.state = null;
    this.url = null;
  }

  /** A new one-time pair code (replaces any pending one); the plaintext is only in the return value. */
  pairCode(): PairCode {
    const code = this.pairCodes.create(this.deps.config.pairCodeTtlSeconds);
    this.deps.log.addSecret(code.code);
    this.deps.log.addSecret(code.code.replace("-", ""));
    return code;
  }

  /** Make `text` the phone's pending clipboard text (replacing any not yet copied). */
  queueClipboard(text: string): ClipboardItem {
    const max = this.deps.config.maxClipboardChars;
    if (text.length > max)
      throw new PiclawError("BRIDGE_CLIPBOARD_TOO_LONG", `text: at most ${max} characters`, {
        field: "text",
        max,
      });
    const item = this.live().queueClipboard(text);
    this.deps.log.info("bridge clipboard queued", { id: item.id, chars: item.length });
    return item;
  }

  /** Wait until the page shows (`shown`) or has copied (`copied`) clipboard item `id`. */
  awaitClipboard(id: number, until: "shown" | "copied", timeoutMs = this.deps.config.ackTimeoutMs) {
    return this.live().awaitClipboard(id, until, timeoutMs);
  }

  /** The next uploaded screenshot (see `BridgeState.nextScreenshot` for `sinceMs`). */
  nextScreenshot(
    timeoutMs = this.deps.config.screenshotTimeoutMs,
    sinceMs?: number,
  ): Promise<BridgeScreenshot> {
    return this.live().nextScreenshot(timeoutMs, sinceMs);
  }

  latestScreenshot(): BridgeScreenshot | null {
    return this.state?.latestScreenshot() ?? null;
  }

  touchesSince(ms: number): ScreenTouch[] {
    return this.state?.touchesSince(ms) ?? [];
  }

  /**
   * Show `svgBody` (as `patternSvg` makes it) full-screen, stretched so `viewBox` fills the page
   * (default: the page's own size in CSS px), and resolve once the page confirms it;
   * BRIDGE_NOT_CONNECTED when it does not within `ackTimeoutMs`.
   */
  async showPattern(svgBody: string, viewBox?: { width: number; height: number }): Promise<void> {
    const state = this.live();
    const id = state.setDisplay(svgBody, viewBox ?? null);
    await state.awaitDisplay(id, this.deps.config.ackTimeoutMs);
  }

  /**
   * Remove the pattern (idempotent). Resolves when the page confirms, or after `ackTimeoutMs` without a
   * page (a page that is not open shows no pattern either; a warning is logged).
   */
  async clearPattern(): Promise<void> {
    const state = this.live();
    const id = state.setDisplay(null, null);
    try {
      await state.awaitDisplay(id, this.deps.config.ackTimeoutMs);
    } catch (err) {
      if (err instanceof PiclawError && err.code === "BRIDGE_NOT_CONNECTED")
        this.deps.log.warn("bridge page did not confirm clearing the pattern");
      else if (!(err instanceof PiclawError && err.code === "BRIDGE_DISPLAY_REPLACED")) throw err;
    }
  }

  status(): BridgeStatus {
    const state = this.state;
    const contact = this.api?.contact;
    const now = this.deps.clock.now();
    const recent =
      contact?.lastSeenMs != null && now - contact.lastSeenMs <= this.deps.config.pollWaitMs + 5000;
    const display = state?.currentDisplay();
    const shot = state?.latestScreenshot();
    return {
      url: this.url,
      pairedDevices: this.devices.list(),
      pairCodeExpiresAtMs: this.pairCodes.pendingUntil(),
      page: {
        connected: Boolean(contact && (contact.activePolls > 0 || recent)),
        lastSeenMs: contact?.lastSeenMs ?? null,
        info: contact?.info ?? null,
      },
      clipboard: state?.clipboard() ?? null,
      pattern: { showing: Boolean(display?.svg), confirmed: display?.acked ?? true },
      latestScreenshot: shot
        ? { type: shot.type, bytes: shot.bytes.length, receivedAtMs: shot.receivedAtMs }
        : null,
      touchCount: state?.touchesSince(Number.NEGATIVE_INFINITY).length ?? 0,
    };
  }

  private live(): BridgeState {
    if (!this.state) throw new PiclawError("BRIDGE_NOT_STARTED", "the phone bridge is not running");
    return this.state;
  }
}
