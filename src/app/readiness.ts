import type { Clock } from "../util/clock.js";

/**
 * What the appliance can do right now, told the same way to systemd (READY=1/STATUS=), `/healthz`, the
 * dashboard, `piclaw doctor` and the tools' errors:
 * - `starting`: the servers, camera and models are coming up;
 * - `calibrating`: up, but the tools wait for a calibration in progress (`detail` says how far it got);
 * - `ready`: the tools can act;
 * - `degraded`: up, but the tools cannot act; `reason` says why and what to do;
 * - `stopping`: shutting down.
 */
export type ReadinessState = "starting" | "calibrating" | "ready" | "degraded" | "stopping";

export interface ReadinessSnapshot {
  state: ReadinessState;
  /** Why the appliance is degraded (and what to do), or what it is waiting for. */
  reason?: string;
  /** The latest progress line of a long step (calibration). */
  detail?: string;
  /** Clock time (ms) the state was entered. */
  since: number;
}

export type ReadinessListener = (now: ReadinessSnapshot, before: ReadinessSnapshot) => void;

/** The daemon's one readiness state. Listeners run synchronously on every change and must not throw. */
export class Readiness {
  private current: ReadinessSnapshot;
  private readonly listeners: ReadinessListener[] = [];

  constructor(private readonly clock: Clock) {
    this.current = { state: "starting", since: clock.now() };
  }

  get snapshot(): ReadinessSnapshot {
    return { ...this.current };
  }

  /** Enter `state` (a new reason replaces the old one; progress detail is cleared). */
  set(state: ReadinessState, reason?: string): void {
    const before = this.current;
    if (before.state === "stopping" && state !== "stopping") return; // nothing revives a stopping daemon
    if (before.state === state && before.reason === reason) return;
    this.current = { state, ...(reason ? { reason } : {}), since: this.clock.now() };
    for (const l of this.listeners) l(this.snapshot, before);
  }

  /** A progress line for the current state (a calibration step); listeners hear it too. */
  progress(detail: string): void {
    const before = this.current;
    this.current = { ...before, detail };
    for (const l of this.listeners) l(this.snapshot, before);
  }

  onChange(listener: ReadinessListener): void {
    this.listeners.push(listener);
  }
}

/** One line for humans and systemd's STATUS=: `ready`, `calibrating: step 3/5`, `degraded: not calibrated …`. */
export function describeReadiness(s: ReadinessSnapshot): string {
  const tail = s.reason ?? s.detail;
  return tail ? `${s.state}: ${tail}` : s.state;
}
