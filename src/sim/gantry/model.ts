import type { BedPoint } from "../../rig/motion.js";
import type { MoveCurve } from "../../rig/speed-law.js";
import type { Clock } from "../../util/clock.js";
import { bedToGlass, type GlassFrame } from "../pose.js";
import type { TouchEvent } from "../types.js";

/** The glass under the gantry: where a stylus contact becomes a touch on the simulated phone. */
export interface TouchSurface {
  frame: GlassFrame;
  glassMm: { width: number; height: number };
  touch(ev: TouchEvent): void;
}

export interface SimGantryOptions {
  clock: Clock;
  /** Reachable area; the frame physically stops the carriage at 0 and at these maxima. */
  travelMm: { x: number; y: number };
  /** Where the carriage physically is at power-on (normally the park spot). */
  initialPosition: BedPoint;
  /** Solenoid: energise → tip on the glass, and de-energise → tip off the glass. */
  contactDelayMs: number;
  releaseDelayMs: number;
  surface?: TouchSurface;
  /** Digitizer sample period while in contact (iPhone: 120 Hz ≈ 8 ms). */
  sampleMs?: number;
  /** Called when a move runs into the frame (a hard limit), with the axis. */
  onLimit?: (axis: "x" | "y") => void;
  /** How many entries `motionLog()` keeps (oldest dropped first); default 4096. */
  motionLogLimit?: number;
}

/**
 * One entry of the gantry's own record, on its clock: a straight move as it was queued (a move later cut
 * short by a stop is shortened to where it stopped), or a solenoid change (when it was commanded, not
 * when the tip reached the glass). Tests read it to check what the machine did, e.g. that motion
 * programs from different callers never interleaved.
 */
export type GantryLogEntry =
  | { kind: "move"; startMs: number; endMs: number; from: BedPoint; to: BedPoint }
  | { kind: "stylus"; atMs: number; down: boolean };

interface Segment {
  from: BedPoint;
  to: BedPoint;
  startMs: number;
  curve: MoveCurve;
}

/** Switches sit at the origin side of each axis and close within this distance of 0. */
const ENDSTOP_MM = 0.2;

/**
 * The simulated gantry's mechanics: the true carriage position over time (piecewise segments whose
 * timing the driving protocol decides — GRBL's planner or the GPIO step pulses), the solenoid stylus,
 * endstop switches and the frame's hard limits. While the stylus tip is on the glass it reports touches
 * (down / 120 Hz moves / up) at the glass point under the tip, computed from the phone's *true* pose, so a
 * wrong calibration is a real miss. Touch times are the exact mechanical times, not timer times.
 */
export class SimGantry {
  private segments: Segment[] = [];
  private rest: BedPoint;
  /** Tip contact changes, in time order: when the tip reaches or leaves the glass. */
  private contacts: { atMs: number; down: boolean }[] = [];
  private energised = false;
  private energisedAtMs = 0;
  private inContact = false;
  private touching = false;
  private lastSampleMs = 0;
  private lastSample: { xMm: number; yMm: number } | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly log: GantryLogEntry[] = [];
  private motionSource: (() => void) | null = null;
  private horizon: ((nowMs: number) => number) | null = null;

  constructor(private readonly options: SimGantryOptions) {
    this.rest = { ...options.initialPosition };
  }

  /** Start the digitizer sampling loop (touch events flow only while started). */
  start(): void {
    if (this.timer) return;
    const period = this.options.sampleMs ?? 8;
    this.timer = setInterval(() => this.flush(this.options.clock.now()), Math.max(1, period / 2));
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  now(): number {
    return this.options.clock.now();
  }

  /**
   * Register a source that books its motion lazily (the pigpio fake replays a transmitted wave after
   * `waveTxSend` has returned, as the DMA engine does): `settle` is called before every read, so a read
   * always sees all motion sent so far. It must tolerate being called from inside its own `move()` calls.
   */
  setMotionSource(settle: (() => void) | null): void {
    this.motionSource = settle;
  }

  /**
   * Register the driver's horizon: the time up to which the solenoid's timeline is final (a board still
   * working through a dwell decides the lift at its end, in machine time, whenever this process gets to
   * it). Touches are delivered only up to it, so nobody sees a stylus "still down" that the board has
   * already lifted on its own timeline: a real phone sees the firmware's timing, not this loop's.
   */
  setHorizonSource(horizon: ((nowMs: number) => number) | null): void {
    this.horizon = horizon;
  }

  /** The time up to which touches are final: now, or earlier while the driver is behind (see above). */
  settledUntil(nowMs = this.now()): number {
    return Math.min(nowMs, this.horizon?.(nowMs) ?? nowMs);
  }

  /** The gantry's record (bounded, oldest first, copies): moves in queue order, solenoid changes. */
  motionLog(sinceMs = Number.NEGATIVE_INFINITY): GantryLogEntry[] {
    this.motionSource?.();
    return this.log
      .filter((e) => (e.kind === "move" ? e.endMs : e.atMs) >= sinceMs)
      .map((e) => (e.kind === "move" ? { ...e, from: { ...e.from }, to: { ...e.to } } : { ...e }));
  }

  /** When all queued motion ends (≤ now when idle). */
  motionEndMs(): number {
    this.motionSource?.();
    const last = this.segments[this.segments.length - 1];
    return last ? last.startMs + last.curve.durationMs : 0;
  }

  isMoving(atMs = this.now()): boolean {
    return this.motionEndMs() > atMs;
  }

  /** True carriage position at `atMs` (default now). */
  positionAt(atMs = this.now()): BedPoint {
    this.motionSource?.();
    for (let i = this.segments.length - 1; i >= 0; i--) {
      const s = this.segments[i];
      if (!s || s.startMs > atMs) continue;
      const { curve } = s;
      const f = curve.distanceMm === 0 ? 1 : curve.distanceAt(atMs - s.startMs) / curve.distanceMm;
      return { xMm: s.from.xMm + (s.to.xMm - s.from.xMm) * f, yMm: s.from.yMm + (s.to.yMm - s.from.yMm) * f };
    }
    return this.segments[0]?.from ?? { ...this.rest };
  }

  /**
   * Queue a straight move to `to` starting at `startMs` (default: when queued motion ends, or now). The
   * curve gets the segment length and returns its timing. A target beyond the frame is cut at the frame
   * (the carriage stalls there) and reported through `onLimit`. Returns the segment's end time.
   * An explicit `startMs` may lie in the past: the pigpio fake books each wave's motion at the time the
   * DMA engine started it, however late a loaded Node finished computing it (touch samples already
   * delivered are not revised).
   */
  move(to: BedPoint, curveFor: (distanceMm: number) => MoveCurve, startMs?: number): number {
    const now = this.now();
    this.flush(now);
    const begin = Math.max(startMs ?? now, this.motionEndMs());
    const from = this.positionAt(begin);
    const { x: maxX, y: maxY } = this.options.travelMm;
    const clamped = { xMm: Math.min(Math.max(to.xMm, 0), maxX), yMm: Math.min(Math.max(to.yMm, 0), maxY) };
    if (clamped.xMm !== to.xMm) this.options.onLimit?.("x");
    else if (clamped.yMm !== to.yMm) this.options.onLimit?.("y");
    const curve = curveFor(Math.hypot(clamped.xMm - from.xMm, clamped.yMm - from.yMm));
    this.segments.push({ from, to: clamped, startMs: begin, curve });
    this.record({ kind: "move", startMs: begin, endMs: begin + curve.durationMs, from, to: { ...clamped } });
    this.prune(now);
    return begin + curve.durationMs;
  }

  /** Energise (down) or release (up) the solenoid at `atMs` (default now). */
  setStylus(down: boolean, atMs = this.now()): void {
    this.flush(Math.min(atMs, this.now()));
    if (down === this.energised) return;
    this.energised = down;
    if (down) this.energisedAtMs = atMs;
    this.record({ kind: "stylus", atMs, down });
    const delay = down ? this.options.contactDelayMs : this.options.releaseDelayMs;
    this.contacts.push({ atMs: atMs + delay, down });
    this.contacts.sort((a, b) => a.atMs - b.atMs);
  }

  get stylusEnergised(): boolean {
    return this.energised;
  }

  /** How long the solenoid has been energised (0 when off). */
  energisedForMs(atMs = this.now()): number {
    return this.energised ? atMs - this.energisedAtMs : 0;
  }

  /**
   * Stop motion where the carriage is at `now` (default: the clock's now; the pigpio fake passes the time
   * its stop call began), leaving the solenoid as it is (a feed hold decelerates by queuing its own
   * stopping segment after this). Returns the position.
   */
  cut(now = this.now()): BedPoint {
    this.flush(now);
    const here = this.positionAt(now);
    this.segments = [];
    this.rest = here;
    this.cutLog(now, here);
    return here;
  }

  /** Stop now: cut queued motion at the current position and release the stylus. */
  halt(): BedPoint {
    const here = this.cut();
    this.setStylus(false, this.now());
    return here;
  }

  /** Endstop switch states (closed near the origin of each axis). */
  endstops(atMs = this.now()): { x: boolean; y: boolean } {
    const p = this.positionAt(atMs);
    return { x: p.xMm <= ENDSTOP_MM, y: p.yMm <= ENDSTOP_MM };
  }

  /** Deliver every touch event due up to `upToMs` (and settled), in time order. Safe to call any time. */
  flush(upToMs: number): void {
    this.motionSource?.();
    upToMs = Math.min(upToMs, this.settledUntil(upToMs));
    const sampleMs = this.options.sampleMs ?? 8;
    for (;;) {
      const next = this.contacts[0];
      const nextSample = this.inContact ? this.lastSampleMs + sampleMs : Number.POSITIVE_INFINITY;
      const t = Math.min(next?.atMs ?? Number.POSITIVE_INFINITY, nextSample);
      if (t > upToMs || !Number.isFinite(t)) break;
      if (next && next.atMs === t) {
        this.contacts.shift();
        this.contact(next.down, t);
      } else {
        this.sample(t);
      }
    }
  }

  private contact(down: boolean, t: number): void {
    if (down === this.inContact) return;
    this.inContact = down;
    this.lastSampleMs = t;
    const surface = this.options.surface;
    if (!surface) return;
    const g = this.glassPoint(t);
    if (down) {
      // A tip landing off the active area touches bezel or bed: the digitizer sees nothing.
      if (!this.onGlass(g)) return;
      this.touching = true;
      this.lastSample = g;
      surface.touch({ type: "down", xMm: g.xMm, yMm: g.yMm, tMs: t });
    } else if (this.touching) {
      this.touching = false;
      surface.touch({ type: "up", xMm: g.xMm, yMm: g.yMm, tMs: t });
    }
  }

  private sample(t: number): void {
    this.lastSampleMs = t;
    const surface = this.options.surface;
    if (!surface || !this.touching) return;
    const g = this.glassPoint(t);
    const prev = this.lastSample;
    if (prev && Math.abs(prev.xMm - g.xMm) < 0.01 && Math.abs(prev.yMm - g.yMm) < 0.01) return;
    this.lastSample = g;
    surface.touch({ type: "move", xMm: g.xMm, yMm: g.yMm, tMs: t });
  }

  private glassPoint(t: number): { xMm: number; yMm: number } {
    const p = this.positionAt(t);
    const surface = this.options.surface;
    return surface ? bedToGlass(surface.frame, p.xMm, p.yMm) : { xMm: p.xMm, yMm: p.yMm };
  }

  private onGlass(g: { xMm: number; yMm: number }): boolean {
    const size = this.options.surface?.glassMm;
    return !!size && g.xMm >= 0 && g.yMm >= 0 && g.xMm <= size.width && g.yMm <= size.height;
  }

  private record(entry: GantryLogEntry): void {
    this.log.push(entry);
    const limit = this.options.motionLogLimit ?? 4096;
    if (this.log.length > limit) this.log.splice(0, this.log.length - limit);
  }

  /** A cut at `now`: moves not yet begun never happen, the one under way ends at `here`. */
  private cutLog(now: number, here: BedPoint): void {
    for (let i = this.log.length - 1; i >= 0; i--) {
      const e = this.log[i];
      if (e?.kind !== "move" || e.endMs <= now) continue;
      if (e.startMs >= now) this.log.splice(i, 1);
      else {
        e.endMs = now;
        e.to = { ...here };
      }
    }
  }

  /** Drop segments that ended before `now`, keeping the position they left the carriage at. */
  private prune(now: number): void {
    while (this.segments.length > 1) {
      const s = this.segments[0];
      if (!s || s.startMs + s.curve.durationMs > now - 1000) break;
      this.rest = s.to;
      this.segments.shift();
    }
  }
}
