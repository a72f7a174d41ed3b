import { PiclawError } from "../../util/errors.js";
import type { RigProfile } from "../profile.js";
import { type SpeedLaw, trapezoidLaw } from "../speed-law.js";
import { kinematicsFor, type MotorSteps } from "./kinematics.js";
import type { PigpioPulse } from "./pigpio-types.js";

/**
 * The wave planner: turns one straight move into pigpio pulses. Pure functions, no I/O — the step timing
 * is decided here, to the microsecond, and the DMA engine replays it; Node never times a step.
 */

/** Direction pins change this long before the first step (A4988 needs 200 ns, DRV8825 650 ns). */
export const DIR_SETUP_US = 20;

/** The pins and pulse width a wave drives. */
export interface WavePins {
  stepA: number;
  dirA: number;
  stepB: number;
  dirB: number;
  invertDirA: boolean;
  invertDirB: boolean;
  stepPulseUs: number;
}

/** A timed pulse train that moves the motors from `from` to `to`. */
export interface WavePlan {
  from: MotorSteps;
  to: MotorSteps;
  dirA: 1 | -1;
  dirB: 1 | -1;
  /** Rising-edge time (µs from the wave's start) of every step, per motor, ascending. */
  stepUsA: number[];
  stepUsB: number[];
  pulses: PigpioPulse[];
  /** From the first pulse to the last edge. */
  durationUs: number;
}

/** A whole straight move: the plan plus what a feed hold needs to replan its tail. */
export interface MovePlan extends WavePlan {
  lengthMm: number;
  /** Cruise (or triangle peak) speed along the path, and the path acceleration used. */
  peakMmPerS: number;
  accelMmPerS2: number;
  readonly pins: WavePins;
  readonly law: SpeedLaw;
}

/** Everything of a profile the planner reads (a GPIO profile). */
export type PlannerProfile = Pick<
  RigProfile,
  "kinematics" | "stepsPerMm" | "maxRateMmPerMin" | "accelMmPerS2" | "maxStepRateHz" | "gpio"
>;

export function wavePins(profile: PlannerProfile): WavePins {
  const gpio = profile.gpio;
  if (!gpio) throw new PiclawError("PROFILE_INVALID", "the GPIO back-end needs the profile's gpio: section");
  const { stepA, dirA, stepB, dirB } = gpio.pins;
  return {
    stepA,
    dirA,
    stepB,
    dirB,
    invertDirA: gpio.invertDirA,
    invertDirB: gpio.invertDirB,
    stepPulseUs: gpio.stepPulseUs,
  };
}

/** Shortest time between two steps of one motor: the profile's step rate, and room for high + low. */
export function minStepIntervalUs(profile: PlannerProfile): number {
  return Math.max(1e6 / profile.maxStepRateHz, 2 * wavePins(profile).stepPulseUs);
}

/**
 * Plan a straight move between absolute motor positions. The path speed follows a trapezoid limited by:
 * the feed (if given), each bed axis' max rate and acceleration projected onto the path direction, and
 * `maxStepRateHz` for each motor (CoreXY motors run at combinations of the axis speeds). Speeds carry a
 * one-microsecond margin so rounding step times to whole µs never makes a step interval too short.
 */
export function planMove(
  profile: PlannerProfile,
  from: MotorSteps,
  to: MotorSteps,
  feedMmPerMin?: number,
): MovePlan {
  const pins = wavePins(profile);
  const kin = kinematicsFor(profile);
  const p0 = kin.toBed(from);
  const p1 = kin.toBed(to);
  const dx = p1.xMm - p0.xMm;
  const dy = p1.yMm - p0.yMm;
  const length = Math.hypot(dx, dy);
  const na = Math.abs(to.a - from.a);
  const nb = Math.abs(to.b - from.b);
  const dirA: 1 | -1 = to.a >= from.a ? 1 : -1;
  const dirB: 1 | -1 = to.b >= from.b ? 1 : -1;
  const ux = length > 0 ? Math.abs(dx) / length : 0;
  const uy = length > 0 ? Math.abs(dy) / length : 0;

  let speed = Number.POSITIVE_INFINITY;
  let accel = Number.POSITIVE_INFINITY;
  if (feedMmPerMin !== undefined && feedMmPerMin > 0) speed = feedMmPerMin / 60;
  if (ux > 0) {
    speed = Math.min(speed, profile.maxRateMmPerMin.x / 60 / ux);
    accel = Math.min(accel, profile.accelMmPerS2.x / ux);
  }
  if (uy > 0) {
    speed = Math.min(speed, profile.maxRateMmPerMin.y / 60 / uy);
    accel = Math.min(accel, profile.accelMmPerS2.y / uy);
  }
  const minInterval = minStepIntervalUs(profile);
  const nMax = Math.max(na, nb);
  if (nMax > 0) {
    speed = Math.min(speed, (1e6 / minInterval) * (length / nMax));
    // Margin: at this speed the fastest motor's ideal interval is I µs; plan for I + 1 so that rounding
    // each step time to the nearest µs (interval error ≤ 1 µs) never exceeds any limit.
    const idealUs = (length / nMax / speed) * 1e6;
    speed *= idealUs / (idealUs + 1);
  }
  const law = trapezoidLaw(length, Number.isFinite(speed) ? speed : 1, Number.isFinite(accel) ? accel : 1);
  const stepUsA = stepTimes(na, length, law);
  const stepUsB = stepTimes(nb, length, law);
  const edges: Edge[] = [];
  if (na + nb > 0) {
    edges.push(dirEdge(pins.dirA, dirA, pins.invertDirA), dirEdge(pins.dirB, dirB, pins.invertDirB));
    // Step pins low first: a move cut off mid-pulse (an underrun drops the wave holding a falling edge,
    // waveTxStop stops between edges) leaves a pin high, and the driver would miss this move's first step.
    edges.push({ us: 0, pin: pins.stepA, level: 0 }, { us: 0, pin: pins.stepB, level: 0 });
  }
  pushSteps(edges, pins.stepA, stepUsA, pins.stepPulseUs);
  pushSteps(edges, pins.stepB, stepUsB, pins.stepPulseUs);
  const pulses = edgesToPulses(edges);
  return {
    from: { ...from },
    to: { ...to },
    dirA,
    dirB,
    stepUsA,
    stepUsB,
    pulses,
    durationUs: totalUs(pulses),
    lengthMm: length,
    peakMmPerS: law.peakSpeed,
    accelMmPerS2: law.accel,
    pins,
    law,
  };
}

/**
 * A feed hold's tail: everything after `cutUs` (the start of the first chunk not yet sent) replaced by a
 * deceleration at the move's acceleration from the speed the move has at `cutUs`, so the motors stop
 * without losing steps. Times are relative to `cutUs`; `from` is the position at the cut, `to` where the
 * motors stop (the move's target when it would end sooner anyway).
 */
export function planHoldTail(move: MovePlan, cutUs: number): WavePlan {
  const { law, pins } = move;
  const tc = Math.max(0, (cutUs - DIR_SETUP_US) / 1e6);
  const sc = law.distanceAt(tc);
  const vc = law.speedAt(tc);
  const a = law.accel;
  const sStop = sc + (vc * vc) / (2 * a);
  const edges: Edge[] = [];
  const motors = [
    { times: move.stepUsA, pin: pins.stepA, n: Math.abs(move.to.a - move.from.a) },
    { times: move.stepUsB, pin: pins.stepB, n: Math.abs(move.to.b - move.from.b) },
  ];
  const sent: number[] = [];
  const tails: number[][] = [];
  for (const m of motors) {
    const already = countAtOrBefore(m.times, cutUs - 1);
    sent.push(already);
    // Steps already out whose falling edge is still due belong to the tail.
    for (let k = Math.max(0, already - 4); k < already; k++) {
      const offUs = (m.times[k] ?? 0) + pins.stepPulseUs - cutUs;
      if (offUs >= 0) edges.push({ us: offUs, pin: m.pin, level: 0 });
    }
    const tail: number[] = [];
    let prevUs = (m.times[already - 1] ?? Number.NEGATIVE_INFINITY) - cutUs;
    for (let k = already + 1; k <= m.n; k++) {
      const s = ((k - 0.5) * move.lengthMm) / m.n;
      if (s > sStop + 1e-9) break;
      const ds = Math.max(0, s - sc);
      const dt = (vc - Math.sqrt(Math.max(0, vc * vc - 2 * a * ds))) / a;
      // Slower than the original timing by construction; the guard only absorbs rounding.
      const us = Math.max(Math.round(dt * 1e6), prevUs + 1, 0);
      tail.push(us);
      prevUs = us;
    }
    tails.push(tail);
    pushSteps(edges, m.pin, tail, pins.stepPulseUs);
  }
  const tailA = tails[0] ?? [];
  const tailB = tails[1] ?? [];
  const sentA = sent[0] ?? 0;
  const sentB = sent[1] ?? 0;
  const pulses = edgesToPulses(edges);
  return {
    from: { a: move.from.a + move.dirA * sentA, b: move.from.b + move.dirB * sentB },
    to: {
      a: move.from.a + move.dirA * (sentA + tailA.length),
      b: move.from.b + move.dirB * (sentB + tailB.length),
    },
    dirA: move.dirA,
    dirB: move.dirB,
    stepUsA: tailA,
    stepUsB: tailB,
    pulses,
    durationUs: totalUs(pulses),
  };
}

/** Motor positions `elapsedUs` into a plan's transmission (steps whose rising edge went out). */
export function stepsDoneAt(plan: WavePlan, elapsedUs: number): MotorSteps {
  return {
    a: plan.from.a + plan.dirA * countAtOrBefore(plan.stepUsA, elapsedUs),
    b: plan.from.b + plan.dirB * countAtOrBefore(plan.stepUsB, elapsedUs),
  };
}

/** One wave of a chunked plan. `startUs`: offset in the plan; `durationUs` includes the gap to the next. */
export interface WaveChunk {
  pulses: PigpioPulse[];
  startUs: number;
  durationUs: number;
}

/**
 * Split a pulse train into waves of at most `maxPulses` pulses and about `maxChunkUs` long. pigpio queues
 * only one wave behind the one transmitting, so a chunk's length is how late Node may be with the next
 * one before the motors starve (an underrun); shorter chunks would make a feed hold stop sooner. Splits only after a pulse with a delay, so simultaneous edges stay in one
 * wave; each chunk's last delay leads exactly to the next chunk's first pulse, so chunks sent back to back
 * (`WAVE_MODE_ONE_SHOT_SYNC`) replay the train seamlessly.
 */
export function chunkPulses(
  pulses: readonly PigpioPulse[],
  maxPulses: number,
  maxChunkUs = 100_000,
): WaveChunk[] {
  const chunks: WaveChunk[] = [];
  let start = 0;
  let startUs = 0;
  let acc = 0;
  let lastCut = -1;
  let accAtCut = 0;
  for (let i = 0; i < pulses.length; i++) {
    const delay = pulses[i]?.usDelay ?? 0;
    acc += delay;
    if (delay > 0) {
      lastCut = i;
      accAtCut = acc;
    }
    const full = i - start + 1 >= maxPulses;
    if (!full && !(delay > 0 && acc >= maxChunkUs)) continue;
    if (lastCut < start)
      throw new PiclawError("MOTION_PLAN_INVALID", "cannot split the wave: too many simultaneous edges");
    chunks.push({ pulses: pulses.slice(start, lastCut + 1), startUs, durationUs: accAtCut });
    startUs += accAtCut;
    acc -= accAtCut;
    start = lastCut + 1;
    lastCut = -1;
    accAtCut = 0;
  }
  if (start < pulses.length) chunks.push({ pulses: pulses.slice(start), startUs, durationUs: acc });
  return chunks;
}

interface Edge {
  us: number;
  pin: number;
  level: 0 | 1;
}

function dirEdge(pin: number, dir: 1 | -1, invert: boolean): Edge {
  return { us: 0, pin, level: dir > 0 !== invert ? 1 : 0 };
}

/** Step k of n happens where the ideal position crosses k − ½ steps: the line's nearest-step track. */
function stepTimes(n: number, length: number, law: SpeedLaw): number[] {
  const out: number[] = new Array(n);
  for (let k = 1; k <= n; k++)
    out[k - 1] = DIR_SETUP_US + Math.round(law.timeAt(((k - 0.5) * length) / n) * 1e6);
  return out;
}

function pushSteps(edges: Edge[], pin: number, times: readonly number[], pulseUs: number): void {
  for (const us of times) edges.push({ us, pin, level: 1 }, { us: us + pulseUs, pin, level: 0 });
}

/** Merge edges into pulses; edges at the same µs become consecutive pulses with `usDelay: 0`. */
export function edgesToPulses(input: readonly Edge[]): PigpioPulse[] {
  const edges = [...input].sort((x, y) => x.us - y.us);
  const pulses: PigpioPulse[] = [];
  const first = edges[0];
  if (first && first.us > 0) pulses.push({ gpioOn: 0, gpioOff: 0, usDelay: first.us });
  let i = 0;
  while (i < edges.length) {
    const t = edges[i]?.us ?? 0;
    const on: number[] = [];
    const off: number[] = [];
    while (i < edges.length && edges[i]?.us === t) {
      const e = edges[i++] as Edge;
      (e.level ? on : off).push(e.pin);
    }
    const count = Math.max(on.length, off.length);
    for (let j = 0; j < count; j++) pulses.push({ gpioOn: on[j] ?? 0, gpioOff: off[j] ?? 0, usDelay: 0 });
    const next = edges[i];
    const last = pulses[pulses.length - 1];
    if (next && last) last.usDelay = next.us - t;
  }
  return pulses;
}

function totalUs(pulses: readonly PigpioPulse[]): number {
  let sum = 0;
  for (const p of pulses) sum += p.usDelay;
  return sum;
}

/** How many entries of an ascending array are ≤ `limit` (binary search). */
function countAtOrBefore(sorted: readonly number[], limit: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] ?? 0) <= limit) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
