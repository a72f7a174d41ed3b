import type { Clock } from "../util/clock.js";
import { PiclawError } from "../util/errors.js";
import type { PhoneOwnerOptions } from "./config.js";

/**
 * The one owner of the arm. The gantry is a single physical resource shared by the built-in agent,
 * scheduled jobs and any number of remote MCP clients; every gesture (and every other arm move) runs
 * under a lease from this owner, so motions from different callers never interleave.
 *
 * Scheduling: a priority queue of waiters, classes ordered by configuration (first = most urgent, e.g.
 * `local` > `scheduled` > `remote`), FIFO within a class (arrival order).
 *
 * No starvation: a waiter's class improves by one step for every `agingMs` it has waited, so a remote
 * caller that waits long enough competes as a `local` one; at equal effective class the earlier arrival
 * wins. Therefore a waiter is served at the latest after (classes − 1) × agingMs plus the holds of the
 * callers that arrived before it — later arrivals can no longer overtake it. A wait limit
 * (`waitLimitMs`, per call or from config) ends a wait with `PHONE_BUSY`; an abort signal ends it with
 * `ABORTED`.
 */

/** One-shot timers; injected so tests run on virtual time. `set` returns a cancel function. */
export interface TimerScheduler {
  set(callback: () => void, ms: number): () => void;
}

export const systemTimers: TimerScheduler = {
  set(callback, ms) {
    const handle = setTimeout(callback, ms);
    return () => clearTimeout(handle);
  },
};

/** What a waiting caller is told (at enqueue, when its place changes, and every progressIntervalMs). */
export interface WaitingInfo {
  /** Place in line, 1 = next to be served once the current holder releases. */
  position: number;
  /** Callers served before this one: the current holder (if any) plus waiters ahead. */
  ahead: number;
  waitedMs: number;
  /** Label of the current holder, for a human-readable progress message. */
  holder: string | null;
}

export interface AcquireRequest {
  /** A class name from `classes`. */
  priority: string;
  /** Who is asking, e.g. `mcp:laptop` or `agent`. Shown to other waiters; never a secret. */
  label: string;
  signal?: AbortSignal;
  /** Overrides the configured wait limit for this call (ms). */
  waitLimitMs?: number;
  onWaiting?: (info: WaitingInfo) => void;
}

/** Held arm. `release()` is idempotent; the next waiter is served as soon as it is called. */
export interface PhoneLease {
  readonly label: string;
  readonly priority: string;
  readonly grantedAt: number;
  /** Milliseconds the caller waited before the grant. */
  readonly waitedMs: number;
  release(): void;
}

/** A read-only picture of the arm's sharing: who holds it and who waits, in serving order. */
export interface OwnerStatus {
  holder: { label: string; priority: string; grantedAt: number } | null;
  waiting: Array<{ label: string; priority: string; waitedMs: number }>;
}

interface Waiter {
  seq: number;
  request: AcquireRequest;
  rank: number;
  enqueuedAt: number;
  lastPosition: number;
  resolve: (lease: PhoneLease) => void;
  reject: (err: Error) => void;
  cleanup: Array<() => void>;
}

export class PhoneOwner {
  private holder: { label: string; seq: number; priority: string; grantedAt: number } | null = null;
  private readonly waiting: Waiter[] = [];
  private nextSeq = 1;

  constructor(
    private readonly options: PhoneOwnerOptions,
    private readonly clock: Clock,
    private readonly timers: TimerScheduler = systemTimers,
  ) {}

  /** The current holder's label, or null when the arm is free. */
  get heldBy(): string | null {
    return this.holder?.label ?? null;
  }

  get queueLength(): number {
    return this.waiting.length;
  }

  /** The holder and the waiters in the order they would be served now (aging included). */
  status(): OwnerStatus {
    const now = this.clock.now();
    const h = this.holder;
    return {
      holder: h ? { label: h.label, priority: h.priority, grantedAt: h.grantedAt } : null,
      waiting: this.ordered().map((w) => ({
        label: w.request.label,
        priority: w.request.priority,
        waitedMs: now - w.enqueuedAt,
      })),
    };
  }

  /**
   * Wait for the arm. Resolves with a lease (immediately when free and nobody waits); rejects with
   * `PHONE_BUSY` after the wait limit, `ABORTED` when the signal fires, `OWNER_PRIORITY_UNKNOWN` for
   * a class not in the configuration. The caller must `release()` the lease (use try/finally).
   */
  acquire(request: AcquireRequest): Promise<PhoneLease> {
    const rank = this.options.classes.indexOf(request.priority);
    if (rank < 0) {
      return Promise.reject(
        new PiclawError(
          "OWNER_PRIORITY_UNKNOWN",
          `unknown priority class "${request.priority}" (known: ${this.options.classes.join(", ")})`,
          { priority: request.priority },
        ),
      );
    }
    if (request.signal?.aborted) return Promise.reject(abortedError(request.label, 0));
    return new Promise<PhoneLease>((resolve, reject) => {
      const waiter: Waiter = {
        seq: this.nextSeq++,
        request,
        rank,
        enqueuedAt: this.clock.now(),
        lastPosition: 0,
        resolve,
        reject,
        cleanup: [],
      };
      this.waiting.push(waiter);
      this.pump();
      if (!this.waiting.includes(waiter)) return; // granted at once
      this.armWaiter(waiter);
      this.notifyPositions();
    });
  }

  /** Timers and the abort listener of a waiter that could not be served at once. */
  private armWaiter(waiter: Waiter): void {
    const { request } = waiter;
    const limit = request.waitLimitMs ?? this.options.waitLimitMs;
    waiter.cleanup.push(this.timers.set(() => this.expire(waiter), limit));
    let cancelTick = (): void => {};
    const tick = () => {
      this.tell(waiter, this.positionOf(waiter));
      cancelTick = this.timers.set(tick, this.options.progressIntervalMs);
    };
    cancelTick = this.timers.set(tick, this.options.progressIntervalMs);
    waiter.cleanup.push(() => cancelTick());
    // Aging changes the order without any event: re-sort at each class boundary crossing.
    for (let step = 1; step <= waiter.rank; step++) {
      waiter.cleanup.push(this.timers.set(() => this.notifyPositions(), step * this.options.agingMs));
    }
    const signal = request.signal;
    if (signal) {
      const onAbort = () => {
        if (!this.remove(waiter)) return;
        waiter.reject(abortedError(request.label, this.clock.now() - waiter.enqueuedAt));
        this.notifyPositions();
      };
      signal.addEventListener("abort", onAbort, { once: true });
      waiter.cleanup.push(() => signal.removeEventListener("abort", onAbort));
    }
  }

  private expire(waiter: Waiter): void {
    const position = this.positionOf(waiter);
    if (!this.remove(waiter)) return;
    const waitedMs = this.clock.now() - waiter.enqueuedAt;
    const ahead = position - 1 + (this.holder ? 1 : 0);
    waiter.reject(
      new PiclawError(
        "PHONE_BUSY",
        `busy: ${ahead} ${ahead === 1 ? "caller" : "callers"} ahead, waited ${(waitedMs / 1000).toFixed(1)} s`,
        { ahead, waitedMs, holder: this.holder?.label ?? null },
      ),
    );
    this.notifyPositions();
  }

  private remove(waiter: Waiter): boolean {
    const index = this.waiting.indexOf(waiter);
    if (index < 0) return false;
    this.waiting.splice(index, 1);
    for (const undo of waiter.cleanup) undo();
    waiter.cleanup = [];
    return true;
  }

  /** Effective class after aging; lower is more urgent. */
  private effectiveRank(waiter: Waiter, now: number): number {
    return Math.max(0, waiter.rank - Math.floor((now - waiter.enqueuedAt) / this.options.agingMs));
  }

  private ordered(): Waiter[] {
    const now = this.clock.now();
    return [...this.waiting].sort(
      (a, b) => this.effectiveRank(a, now) - this.effectiveRank(b, now) || a.seq - b.seq,
    );
  }

  private positionOf(waiter: Waiter): number {
    return this.ordered().indexOf(waiter) + 1;
  }

  /** Grant the arm to the best waiter when it is free. */
  private pump(): void {
    if (this.holder) return;
    const next = this.ordered()[0];
    if (!next) return;
    this.remove(next);
    const grantedAt = this.clock.now();
    const holder = { label: next.request.label, seq: next.seq, priority: next.request.priority, grantedAt };
    this.holder = holder;
    let released = false;
    next.resolve({
      label: next.request.label,
      priority: next.request.priority,
      grantedAt,
      waitedMs: grantedAt - next.enqueuedAt,
      release: () => {
        if (released) return;
        released = true;
        if (this.holder === holder) this.holder = null;
        this.pump();
        this.notifyPositions();
      },
    });
  }

  /** Tell waiters whose place in line changed (a new waiter always hears its first place). */
  private notifyPositions(): void {
    this.ordered().forEach((waiter, index) => {
      if (waiter.lastPosition !== index + 1) this.tell(waiter, index + 1);
    });
  }

  private tell(waiter: Waiter, position: number): void {
    waiter.lastPosition = position;
    const cb = waiter.request.onWaiting;
    if (!cb) return;
    try {
      cb({
        position,
        ahead: position - 1 + (this.holder ? 1 : 0),
        waitedMs: this.clock.now() - waiter.enqueuedAt,
        holder: this.holder?.label ?? null,
      });
    } catch {
      // A progress callback must not break the queue; it is a courtesy to the caller.
    }
  }
}

function abortedError(label: string, waitedMs: number): PiclawError {
  return new PiclawError("ABORTED", `${label}: gave up waiting for the arm`, { waitedMs });
}
