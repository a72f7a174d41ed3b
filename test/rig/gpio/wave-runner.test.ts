import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { PigpioLike, PigpioPulse } from "../../../src/rig/gpio/pigpio-types.js";
import { chunkPulses, planMove, stepsDoneAt } from "../../../src/rig/gpio/wave-planner.js";
import { WaveRunner } from "../../../src/rig/gpio/wave-runner.js";
import { loadRigProfile } from "../../../src/rig/profile.js";
import { projectRoot } from "../../../src/util/paths.js";
import { quietLog } from "../../fakes/log.js";

const profile = loadRigProfile(resolve(projectRoot(), "calibration/profiles/cartesian-gpio.yaml"));

/**
 * Just the wave calls the runner makes, with the transmitter's state set by the test: what a loaded
 * machine looks like when pigpio's DMA engine has finished the waves but Node's loop has not woken.
 */
function scriptedPigpio(maxPulses: number): { pigpio: PigpioLike; busy: { value: boolean } } {
  const busy = { value: true };
  const sent: number[] = [];
  let nextId = 0;
  const pigpio = {
    WAVE_MODE_ONE_SHOT: 0,
    WAVE_MODE_ONE_SHOT_SYNC: 3,
    waveClear() {},
    waveAddGeneric(pulses: readonly PigpioPulse[]) {
      return pulses.length;
    },
    waveCreate() {
      return nextId++;
    },
    waveDelete() {},
    waveTxSend(id: number) {
      sent.push(id);
      return 0;
    },
    waveTxBusy: () => (busy.value ? 1 : 0),
    waveTxAt: () => (busy.value ? (sent[0] ?? 9999) : 9999),
    waveTxStop() {
      busy.value = false;
    },
    waveGetMaxPulses: () => maxPulses,
  };
  return { pigpio: pigpio as unknown as PigpioLike, busy };
}

describe("WaveRunner.positionNow", () => {
  it("reports the last sent wave's end once nothing transmits, whatever the clock estimate says", async () => {
    const maxPulses = 400;
    const { pigpio, busy } = scriptedPigpio(maxPulses);
    // A clock that never advances: the elapsed-time estimate sees the first wave just starting.
    const runner = new WaveRunner(pigpio, { now: () => 1_000 }, quietLog());
    const plan = planMove(profile, { a: 0, b: 0 }, { a: 4_000, b: 0 });
    const chunks = chunkPulses(plan.pulses, Math.floor(maxPulses * 0.45));
    expect(chunks.length).toBeGreaterThan(2);
    const running = runner.run(plan);
    // Two waves are out (transmitting + queued) and the loop sleeps; the estimate is at the start.
    expect(runner.positionNow()).toEqual(stepsDoneAt(plan, 0));
    // The DMA engine finishes both waves before Node wakes: the motors rest at the second wave's end (its
    // duration runs up to the third wave's first edge, which never went out).
    busy.value = false;
    const second = chunks[1];
    if (!second) throw new Error("no second chunk");
    const rested = stepsDoneAt(plan, second.startUs + second.durationUs - 0.5);
    expect(rested.a).toBeGreaterThan(0);
    expect(runner.positionNow()).toEqual(rested);
    // When the loop wakes it finds the engine starved and stops there: the same position.
    const outcome = await running;
    expect(outcome).toEqual({ end: "underrun", position: rested });
  });
});

describe("WaveRunner timing of sends and stops", () => {
  it("dates a chain's start when waveTxSend returns and a stop when waveTxStop is called", async () => {
    const maxPulses = 4_000;
    const { pigpio, busy } = scriptedPigpio(maxPulses);
    let nowMs = 1_000;
    // A pause inside each call (a GC or a preemption on a loaded machine): the DMA engine starts a wave
    // as gpioWaveTxSend returns, and halts as gpioWaveTxStop begins.
    const send = pigpio.waveTxSend.bind(pigpio);
    pigpio.waveTxSend = (id: number, mode: number) => {
      if (mode === pigpio.WAVE_MODE_ONE_SHOT) nowMs += 17;
      return send(id, mode);
    };
    const stop = pigpio.waveTxStop.bind(pigpio);
    pigpio.waveTxStop = () => {
      const r = stop();
      nowMs += 200;
      return r;
    };
    const runner = new WaveRunner(pigpio, { now: () => nowMs }, quietLog());
    const plan = planMove(profile, { a: 0, b: 0 }, { a: 20_000, b: 0 });
    const first = chunkPulses(plan.pulses, Math.floor(maxPulses * 0.45))[0];
    expect(first?.durationUs).toBeGreaterThan(60_000);
    const running = runner.run(plan);
    nowMs = 1_017 + 40;
    // 40 ms after the wave went out, not 57 ms after the send was called.
    expect(runner.positionNow()).toEqual(stepsDoneAt(plan, 40_000));
    expect(stepsDoneAt(plan, 57_000)).not.toEqual(stepsDoneAt(plan, 40_000));
    const here = runner.stop();
    // Where the motors were when the stop was called, not 200 ms later when it returned.
    expect(here).toEqual(stepsDoneAt(plan, 40_000));
    expect(busy.value).toBe(false);
    expect(await running).toEqual({ end: "stopped", position: here });
  });
});

describe("WaveRunner chaining near a wave's end", () => {
  it("does not chain a wave behind one about to end: lets it finish, then reports the underrun", async () => {
    const maxPulses = 400;
    const { pigpio, busy } = scriptedPigpio(maxPulses);
    const sent: number[] = [];
    const deleted: number[] = [];
    let onAir = 0;
    const send = pigpio.waveTxSend.bind(pigpio);
    pigpio.waveTxSend = (id: number, mode: number) => {
      sent.push(id);
      return send(id, mode);
    };
    pigpio.waveDelete = (id: number) => {
      deleted.push(id);
      return 0;
    };
    pigpio.waveTxAt = () => (busy.value ? onAir : 9999);
    let nowMs = 1_000;
    const runner = new WaveRunner(pigpio, { now: () => nowMs }, quietLog());
    const plan = planMove(profile, { a: 0, b: 0 }, { a: 4_000, b: 0 });
    const chunks = chunkPulses(plan.pulses, Math.floor(maxPulses * 0.45));
    const [c0, c1, c2] = chunks;
    if (!c0 || !c1 || !c2) throw new Error("fewer than three chunks");
    let settled = false;
    const running = runner.run(plan).finally(() => {
      settled = true;
    });
    expect(sent).toEqual([0, 1]); // transmitting + queued
    // Node wakes late: the second wave is on air with 1 ms left (busy, yet too close to its end for a
    // wave sent now to be sure to chain — a pause before the send would leave a gap nobody sees).
    onAir = 1;
    nowMs = 1_000 + (c0.durationUs + c1.durationUs) / 1000 - 1;
    for (let i = 0; i < 200 && !deleted.includes(2); i++) await new Promise((r) => setTimeout(r, 2));
    expect(deleted).toContain(2); // the third wave was created and dropped, not sent
    expect(sent).toEqual([0, 1]);
    // The second wave is still transmitting: run() waits for it (a replan's ONE_SHOT would cut it short).
    await new Promise((r) => setTimeout(r, 20));
    expect(settled).toBe(false);
    busy.value = false;
    expect(await running).toEqual({ end: "underrun", position: stepsDoneAt(plan, c2.startUs - 0.5) });
  });
});
