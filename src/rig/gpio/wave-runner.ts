import type { Logger } from "../../log/logger.js";
import type { Clock } from "../../util/clock.js";
import type { MotorSteps } from "./kinematics.js";
import type { PigpioLike } from "./pigpio-types.js";
import {
  chunkPulses,
  type MovePlan,
  planHoldTail,
  stepsDoneAt,
  type WaveChunk,
  type WavePlan,
} from "./wave-planner.js";

/**
 * A wave is chained behind the last one only while that one has at least this long left to transmit;
 * closer to its end the runner lets the engine run dry and reports an underrun (waves last 15–45 ms, and
 * Node normally sends the next as the queued one starts, a whole wave ahead).
 */
const CHAIN_GUARD_MS = 3;

/**
 * How a streamed move ended, and where the motors are (steps actually sent). `underrun`: Node queued the
 * next wave after the DMA engine had run dry, so the motors stopped short (abruptly); the rest of the move
 * was not sent, and the caller replans it from rest.
 */
export interface WaveOutcome {
  end: "done" | "stopped" | "held" | "underrun";
  position: MotorSteps;
}

interface Queued {
  chunk: WaveChunk;
  plan: WavePlan;
}

interface InFlight extends Queued {
  id: number;
  /** Clock time (ms) the chunk's first pulse goes out (estimated for a chunk queued behind another). */
  startMs: number;
}

/**
 * Streams one planned move to pigpio as a sequence of waves: the first with `WAVE_MODE_ONE_SHOT`, each
 * next one queued behind it with `WAVE_MODE_ONE_SHOT_SYNC` while the current one transmits, so the DMA
 * engine replays the whole pulse train seamlessly and Node only needs to keep one wave ahead. At most
 * two waves exist at a time, each under half of `waveGetMaxPulses()` (the DMA pool is shared).
 *
 * `stop()` is synchronous (`waveTxStop` at once — e-stop and hard limits call it from input callbacks);
 * `hold()` lets the queued waves finish and replaces the rest of the move with a deceleration.
 */
export class WaveRunner {
  private pending: Queued[] = [];
  private inFlight: InFlight[] = [];
  private move: MovePlan | null = null;
  /** The plan whose end is where the motors stop: the move, or its hold tail. */
  private finalPlan: WavePlan | null = null;
  /** Set by stop(): where the motors were when the engine was stopped. */
  private stoppedAt: MotorSteps | null = null;
  private holdRequested = false;
  private held = false;
  /** Waves of this move sent so far (an underrun is a later one going out with nothing transmitting). */
  private sentWaves = 0;
  /** Set when the engine ran dry mid-move: where the motors stopped (the end of the last wave sent). */
  private starvedAt: MotorSteps | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly pigpio: PigpioLike,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  get active(): boolean {
    return this.move !== null;
  }

  /** Transmit `plan`; resolves when it finished, was stopped or came to rest for a hold. */
  async run(plan: MovePlan): Promise<WaveOutcome> {
    if (plan.pulses.length === 0) return { end: "done", position: plan.to };
    this.move = plan;
    this.finalPlan = plan;
    this.stoppedAt = null;
    this.held = false;
    this.holdRequested = false;
    this.sentWaves = 0;
    this.starvedAt = null;
    const maxPulses = this.wavePulseBudget();
    this.pending = chunkPulses(plan.pulses, maxPulses).map((chunk) => ({ chunk, plan }));
    this.inFlight = [];
    try {
      this.pigpio.waveClear();
      this.sendNext(this.pigpio.WAVE_MODE_ONE_SHOT);
      this.sendNext(this.pigpio.WAVE_MODE_ONE_SHOT_SYNC);
      while (!this.stoppedAt && !this.starvedAt) {
        this.retireFinished();
        if (this.inFlight.length < 2) this.sendNext(this.pigpio.WAVE_MODE_ONE_SHOT_SYNC);
        if (this.inFlight.length === 0 && !this.pigpio.waveTxBusy()) break;
        await this.sleep(this.nextCheckMs());
      }
      // Where stop() found the motors, not positionNow() here: this runs when the loop next wakes, which
      // on a loaded machine is tens of ms later, and the elapsed-time estimate would count waves that
      // were cut off (a 4 mm error seen at load 26).
      if (this.stoppedAt) return { end: "stopped", position: this.stoppedAt };
      if (this.starvedAt) {
        // The last wave may still be finishing (a wave too close to its end is not chained behind it):
        // the caller's replan starts with WAVE_MODE_ONE_SHOT, which would cut it short.
        await this.drain();
        if (this.stoppedAt) return { end: "stopped", position: this.stoppedAt };
        return { end: "underrun", position: this.starvedAt };
      }
      const last = this.finalPlan ?? plan;
      return { end: this.held && !samePosition(last.to, plan.to) ? "held" : "done", position: last.to };
    } finally {
      this.move = null;
      this.pending = [];
      this.inFlight = [];
    }
  }

  /**
   * Pulses per wave: two waves are in flight at once (transmitting + queued) and share pigpio's pulse
   * pool, so each may use a little under half of it; bigger waves give Node more slack against underruns.
   */
  private wavePulseBudget(): number {
    return Math.max(16, Math.floor(this.pigpio.waveGetMaxPulses() * 0.45));
  }

  /** Stop transmitting now (within one step period); returns the motor positions reached. */
  stop(): MotorSteps | null {
    if (!this.move || this.stoppedAt) return null;
    // Dated before the call: the DMA engine halts as it begins, and anything that delays the call's return
    // (a GC pause, a preemption — 175–200 ms seen at load 25) must not count as steps sent.
    const at = this.clock.now();
    this.pigpio.waveTxStop();
    // From the clock: the transmitter is idle now, but the waves it was cut off in did not go out whole.
    const here = this.elapsedPosition(at);
    this.stoppedAt = here;
    this.wake?.();
    return here;
  }

  /** Decelerate to rest after the waves already queued; `run()` then resolves with `end: "held"`. */
  hold(): void {
    if (!this.move || this.holdRequested) return;
    this.holdRequested = true;
    const next = this.pending[0];
    if (!next || next.plan !== this.move) return;
    const tail = planHoldTail(this.move, next.chunk.startUs);
    const maxPulses = this.wavePulseBudget();
    this.pending = chunkPulses(tail.pulses, maxPulses).map((chunk) => ({ chunk, plan: tail }));
    this.finalPlan = tail;
    this.held = true;
  }

  /** Motor positions now: the steps whose rising edge has gone out (estimated from elapsed wave time). */
  positionNow(): MotorSteps {
    // After a stop or an underrun the motors rest; the elapsed-time estimate below would keep counting
    // the waves that were cut off until run()'s loop next wakes (late on a loaded machine).
    if (this.stoppedAt) return this.stoppedAt;
    if (this.starvedAt) return this.starvedAt;
    // Nothing transmitting: every wave sent has gone out whole, so the motors rest at the last one's end
    // (its duration runs up to the next chunk's first edge, hence the half µs, as for an underrun). The
    // elapsed-time estimate below can be off there — a queued wave's start is estimated, and on a loaded
    // machine run()'s loop retires it late — which once reported a held carriage one step from the gantry.
    const last = this.inFlight.at(-1);
    if (last && !this.pigpio.waveTxBusy()) {
      return stepsDoneAt(last.plan, last.chunk.startUs + last.chunk.durationUs - 0.5);
    }
    return this.elapsedPosition();
  }

  /** Motor positions estimated from the clock: the steps of the in-flight waves that are due by now. */
  private elapsedPosition(now = this.clock.now()): MotorSteps {
    let current: InFlight | undefined;
    for (const f of this.inFlight) if (f.startMs <= now) current = f;
    const base = current ?? this.inFlight[0];
    if (!base) return (this.finalPlan ?? (this.move as WavePlan)).to;
    const elapsedUs = Math.min(Math.max((now - base.startMs) * 1000, 0), base.chunk.durationUs);
    return stepsDoneAt(base.plan, base.chunk.startUs + elapsedUs);
  }

  private sendNext(mode: number): void {
    const next = this.pending.shift();
    if (!next) return;
    if (next.chunk.pulses.length === 0) return;
    this.pigpio.waveAddGeneric(next.chunk.pulses);
    const id = this.pigpio.waveCreate();
    // Counted by waves sent, not by `inFlight`: when Node wakes after *both* queued waves have ended,
    // retireFinished() has already emptied inFlight. Checked after creating the wave, right before the
    // send, so the time creating it takes cannot hide an underrun. The motors have stopped dead at the
    // end of the last wave; sending the rest now would restart them at cruise speed from rest — a jump
    // no motor follows (lost steps). So the rest is dropped and run() returns `underrun` for the caller
    // to replan it with an acceleration from rest.
    if (this.sentWaves > 0 && this.tooLateToChain()) {
      this.pigpio.waveDelete(id);
      this.log.warn("wave underrun: Node queued the next wave too late; replanning from rest", {
        waves: this.sentWaves,
      });
      // Edges are whole µs: everything before the unsent chunk's first pulse went out.
      this.starvedAt = stepsDoneAt(next.plan, next.chunk.startUs - 0.5);
      this.pending = [];
      return;
    }
    // Past the check above, a previous wave is one still transmitting with time left: this one chains.
    const prev = this.inFlight.at(-1);
    this.pigpio.waveTxSend(id, mode);
    // Dated after the call: a wave that starts a chain starts as gpioWaveTxSend returns. Read before it, a
    // pause in between (a GC or a preemption: 15–17 ms seen at load 12–16) dated the start early, and every
    // position estimate of the move ran ahead of the carriage by that much.
    const now = this.clock.now();
    this.sentWaves++;
    const startMs = prev ? Math.max(now, prev.startMs + prev.chunk.durationUs / 1000) : now;
    this.inFlight.push({ ...next, id, startMs });
  }

  /**
   * Whether a wave sent now might not chain: nothing transmits, or the last wave sent ends within
   * `CHAIN_GUARD_MS`. A busy check alone leaves a window between it and the send in which the engine can
   * run dry unseen (a GC pause or a preemption there: gaps of 9–14 ms between chained waves at load 15–22,
   * none reported); the guard makes that window need a pause longer than the time left. The estimate of
   * the last wave's end is never early (a chain's start is dated as its send returns).
   */
  private tooLateToChain(): boolean {
    if (!this.pigpio.waveTxBusy()) return true;
    const last = this.inFlight.at(-1);
    if (!last) return true;
    return this.clock.now() >= last.startMs + last.chunk.durationUs / 1000 - CHAIN_GUARD_MS;
  }

  /** Delete waves the DMA engine has moved past (never the one transmitting). */
  private retireFinished(): void {
    const at = this.pigpio.waveTxAt();
    const busy = !!this.pigpio.waveTxBusy();
    while (this.inFlight.length > 0) {
      const first = this.inFlight[0] as InFlight;
      if (busy && first.id === at) break;
      if (busy && this.inFlight.every((f) => f.id !== at)) break;
      this.inFlight.shift();
      this.pigpio.waveDelete(first.id);
    }
  }

  /** Waits (bounded: the waves in flight's time plus a margin) until nothing transmits or stop() is called. */
  private async drain(): Promise<void> {
    const waveMs = this.inFlight.reduce((sum, f) => sum + f.chunk.durationUs / 1000, 0);
    const deadline = this.clock.now() + waveMs + 50;
    while (!this.stoppedAt && this.pigpio.waveTxBusy() && this.clock.now() < deadline) await this.sleep(1);
  }

  private nextCheckMs(): number {
    const first = this.inFlight[0];
    if (!first) return 1;
    const endMs = first.startMs + first.chunk.durationUs / 1000;
    return Math.min(Math.max(endMs - this.clock.now(), 1), 10);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const self = this;
      function done(): void {
        clearTimeout(timer);
        self.wake = null;
        resolve();
      }
      this.wake = done;
    });
  }
}

function samePosition(a: MotorSteps, b: MotorSteps): boolean {
  return a.a === b.a && a.b === b.b;
}
