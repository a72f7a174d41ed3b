import type { Logger } from "../log/logger.js";
import type { Clock } from "../util/clock.js";
import { errorMessage } from "../util/errors.js";

/** The newest annotated view of the phone the dashboard has. */
export interface DashboardFrame {
  /** Increases by one with every new view (the page fetches the JPEG when it changes). */
  id: number;
  /** When the view was taken (ms since epoch, injected clock). */
  takenAt: number;
  jpeg: Buffer;
  listing: string;
}

export interface FrameState {
  frame: DashboardFrame | null;
  /** Why the last refresh failed (null after a success). */
  error: string | null;
  refreshing: boolean;
}

/** A refresh that takes longer than this is abandoned (e.g. the start-up calibration is still running). */
const LOOK_TIMEOUT_MS = 120_000;

/**
 * The dashboard's view of the phone. Looking runs the whole vision pipeline (hundreds of ms of CPU on a
 * Pi), so views are shared by every open page, at most one is being made at a time, and automatic
 * refreshes happen only while someone is watching (`touch()`), at most once per `refreshMs`.
 */
export class FrameCache {
  private state: FrameState = { frame: null, error: null, refreshing: false };
  private inFlight: Promise<FrameState> | null = null;
  private nextId = 1;
  /** When the last refresh started or ended (null before the first). */
  private lastAttempt: number | null = null;
  private readonly abort = new AbortController();

  constructor(
    private readonly look: (signal: AbortSignal) => Promise<{ jpeg: Buffer; listing: string }>,
    private readonly clock: Clock,
    private readonly log: Logger,
    /** 0 = refresh only when asked. */
    private readonly refreshMs: number,
  ) {}

  get current(): FrameState {
    return { ...this.state };
  }

  /**
   * A page is watching: start a refresh when the view is older than `refreshMs` (or missing). A
   * failed refresh is retried after `refreshMs` too, so a broken camera is not hammered.
   */
  touch(): void {
    if (this.refreshMs <= 0 || this.inFlight || this.abort.signal.aborted) return;
    const last = this.lastAttempt;
    if (last !== null && this.clock.now() - last < this.refreshMs) return;
    void this.refresh();
  }

  /** Take a new view now (joining one in progress). Never rejects: failures land in `error`. */
  refresh(): Promise<FrameState> {
    if (this.inFlight) return this.inFlight;
    this.lastAttempt = this.clock.now();
    this.state = { ...this.state, refreshing: true };
    const signal = AbortSignal.any([this.abort.signal, AbortSignal.timeout(LOOK_TIMEOUT_MS)]);
    const run = async (): Promise<FrameState> => {
      try {
        // Deferred, so a look that throws at once still settles after `inFlight` is set.
        const view = await Promise.resolve().then(() => this.look(signal));
        const frame = { id: this.nextId++, takenAt: this.clock.now(), ...view };
        this.state = { frame, error: null, refreshing: false };
      } catch (err) {
        this.log.debug("dashboard view failed", { err });
        this.state = { ...this.state, error: errorMessage(err), refreshing: false };
      } finally {
        this.lastAttempt = this.clock.now();
        this.inFlight = null;
      }
      return this.current;
    };
    this.inFlight = run();
    return this.inFlight;
  }

  /** Abandon a refresh in progress; no new ones start. */
  async close(): Promise<void> {
    this.abort.abort();
    await this.inFlight;
  }
}
