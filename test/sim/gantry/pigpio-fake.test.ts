import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { PigpioPulse } from "../../../src/rig/gpio/pigpio-types.js";
import type { BedPoint } from "../../../src/rig/motion.js";
import { loadRigProfile, type RigProfile } from "../../../src/rig/profile.js";
import { SimGantry } from "../../../src/sim/gantry/model.js";
import { createPigpioFake } from "../../../src/sim/gantry/pigpio-fake.js";
import { type Clock, ManualClock, systemClock } from "../../../src/util/clock.js";
import { projectRoot } from "../../../src/util/paths.js";

const cartesian = loadRigProfile(resolve(projectRoot(), "calibration/profiles/cartesian-gpio.yaml"));
const STEP_A = 17;
const DIR_A = 27;
const ENABLE = 24;
const SOLENOID = 18;

function setup(
  options: { realTime?: boolean; at?: BedPoint; profile?: RigProfile; maxPulses?: number } = {},
) {
  const manual = new ManualClock();
  const clock: Clock = options.realTime ? systemClock : manual;
  const profile = options.profile ?? cartesian;
  const gantry = new SimGantry({
    clock,
    travelMm: profile.travelMm,
    initialPosition: options.at ?? { xMm: 100, yMm: 100 },
    contactDelayMs: 15,
    releaseDelayMs: 25,
  });
  const fake = createPigpioFake({
    gantry,
    profile,
    clock,
    chipBase: 512,
    maxPulses: options.maxPulses ?? 12_000,
  });
  const { Gpio } = fake.pigpio;
  const enable = new Gpio(ENABLE, { mode: Gpio.OUTPUT });
  enable.digitalWrite(0); // active low: drivers on
  return { clock: manual, gantry, fake, enable };
}

/** `n` steps on STEP_A every `periodUs`, dir A at `dirLevel` first. */
function stepTrain(n: number, periodUs: number, dirLevel: 0 | 1): PigpioPulse[] {
  const pulses: PigpioPulse[] = [
    dirLevel ? { gpioOn: DIR_A, gpioOff: 0, usDelay: 20 } : { gpioOn: 0, gpioOff: DIR_A, usDelay: 20 },
  ];
  for (let i = 0; i < n; i++) {
    pulses.push(
      { gpioOn: STEP_A, gpioOff: 0, usDelay: 4 },
      { gpioOn: 0, gpioOff: STEP_A, usDelay: periodUs - 4 },
    );
  }
  return pulses;
}

function send(fake: ReturnType<typeof setup>["fake"], pulses: PigpioPulse[], sync = false): number {
  fake.pigpio.waveAddGeneric(pulses);
  const id = fake.pigpio.waveCreate();
  fake.pigpio.waveTxSend(id, sync ? fake.pigpio.WAVE_MODE_ONE_SHOT_SYNC : fake.pigpio.WAVE_MODE_ONE_SHOT);
  return id;
}

describe("pigpio fake: waves drive the simulated gantry", () => {
  it("executes step edges as motion timed exactly by the pulse delays", () => {
    const { clock, gantry, fake } = setup();
    const t0 = clock.now();
    send(fake, stepTrain(80, 1000, 1));
    const wave = fake.recorder.waves[0];
    expect(wave?.rising.get(STEP_A)).toEqual(Array.from({ length: 80 }, (_, i) => 20 + i * 1000));
    expect(wave?.durationUs).toBe(20 + 80 * 1000);
    expect(fake.pigpio.waveTxBusy()).toBe(1);
    expect(fake.pigpio.waveTxAt()).toBe(0);
    // At the 40th rising edge (of 80 steps of 1/80 mm) the carriage is half a millimetre along…
    expect(gantry.positionAt(t0 + 39.02).xMm).toBeCloseTo(100.5, 5);
    // …and between edges the rotor moves on smoothly toward the next step.
    expect(gantry.positionAt(t0 + 39.52).xMm).toBeCloseTo(100.5 + 0.5 / 80, 5);
    clock.advance(81);
    expect(fake.pigpio.waveTxBusy()).toBe(0);
    expect(fake.pigpio.waveTxAt()).toBe(9999);
    expect(gantry.positionAt()).toEqual({ xMm: 101, yMm: 100 });
    expect(fake.recorder.motors()).toEqual({ a: 101 * 80, b: 100 * 80 });
  });

  it("dir low steps backwards; SYNC waves start exactly when the previous ends", () => {
    const { clock, gantry, fake } = setup();
    const t0 = clock.now();
    send(fake, stepTrain(40, 500, 0));
    send(fake, stepTrain(40, 500, 0), true);
    const [first, second] = fake.recorder.waves;
    expect(second?.startMs).toBeCloseTo(t0 + (first?.durationUs ?? 0) / 1000, 9);
    clock.advance(100);
    expect(gantry.positionAt().xMm).toBeCloseTo(99, 9);
  });

  it("disabled drivers ignore steps: the pulses go out, the carriage stays", () => {
    const { clock, gantry, fake, enable } = setup();
    enable.digitalWrite(1);
    expect(fake.recorder.driversEnabled()).toBe(false);
    send(fake, stepTrain(80, 200, 1));
    clock.advance(50);
    expect(fake.recorder.waves).toHaveLength(1);
    expect(gantry.positionAt()).toEqual({ xMm: 100, yMm: 100 });
  });

  it("CoreXY: motor A alone moves the carriage diagonally by half a belt step per step", () => {
    const corexy: RigProfile = { ...cartesian, kinematics: "corexy" };
    const { clock, gantry, fake } = setup({ profile: corexy });
    send(fake, stepTrain(160, 100, 1));
    clock.advance(20);
    expect(gantry.positionAt().xMm).toBeCloseTo(101, 9);
    expect(gantry.positionAt().yMm).toBeCloseTo(101, 9);
  });

  it("waveTxStop halts the carriage where the pulses had brought it", () => {
    const { clock, gantry, fake } = setup();
    send(fake, stepTrain(800, 1000, 1));
    clock.advance(400.01);
    fake.pigpio.waveTxStop();
    expect(fake.pigpio.waveTxBusy()).toBe(0);
    expect(fake.recorder.waves[0]?.stoppedAtMs).toBe(clock.now());
    clock.advance(500);
    // 400 steps went out; the rotor was 99 % of the way to the 401st.
    expect(gantry.positionAt().xMm).toBeCloseTo(105 + 0.99 / 80, 5);
    expect(fake.recorder.risingTimesMs(STEP_A)).toHaveLength(400);
  });

  it("enforces pigpio's limits: pulses per wave, the shared DMA pool, GPIO 1–31", () => {
    const { fake } = setup({ maxPulses: 300 });
    expect(() => fake.pigpio.waveAddGeneric(stepTrain(200, 100, 1))).toThrow(/TOO_MANY_PULSES/);
    fake.pigpio.waveClear();
    fake.pigpio.waveAddGeneric(stepTrain(100, 100, 1));
    fake.pigpio.waveCreate();
    fake.pigpio.waveAddGeneric(stepTrain(100, 100, 1));
    expect(() => fake.pigpio.waveCreate()).toThrow(/TOO_MANY_CBS/);
    expect(() => fake.pigpio.waveAddGeneric([{ gpioOn: 40, gpioOff: 0, usDelay: 1 }])).toThrow(/1–31/);
  });

  it("hardware PWM on the solenoid pin energises the stylus; other pins have no hardware PWM", () => {
    const { clock, gantry, fake } = setup();
    const { Gpio } = fake.pigpio;
    const solenoid = new Gpio(SOLENOID, { mode: Gpio.OUTPUT });
    solenoid.hardwarePwmWrite(20_000, 1_000_000);
    expect(gantry.stylusEnergised).toBe(true);
    clock.advance(30);
    solenoid.hardwarePwmWrite(20_000, 600_000);
    expect(gantry.energisedForMs()).toBe(30);
    solenoid.hardwarePwmWrite(20_000, 0);
    expect(gantry.stylusEnergised).toBe(false);
    expect(() => new Gpio(STEP_A).hardwarePwmWrite(20_000, 1)).toThrow(/no hardware PWM/);
  });
});

describe("pigpio fake: the DMA engine runs beside the caller", () => {
  it("waveTxSend returns before replaying the pulses; any read sees the motion", async () => {
    const { gantry, fake } = setup();
    let moves = 0;
    const move = gantry.move.bind(gantry);
    gantry.move = (...args) => {
      moves++;
      return move(...args);
    };
    send(fake, stepTrain(400, 100, 1));
    send(fake, stepTrain(400, 100, 1), true);
    // Replaying thousands of edges is the fake's cost, not pigpio's: it must not delay the next send.
    expect(moves).toBe(0);
    expect(fake.pigpio.waveTxBusy()).toBe(1);
    await Promise.resolve();
    expect(moves).toBeGreaterThan(0);
    const eager = setup();
    send(eager.fake, stepTrain(400, 100, 1));
    // A read before the microtask replays at once (motion ends at the 400th rising edge).
    expect(eager.gantry.motionEndMs()).toBeCloseTo(eager.clock.now() + 39.92, 6);
  });

  it("rising edges in exact µs across chained waves, where epoch milliseconds blur them", () => {
    const { fake } = setup();
    // Intervals alternating 77 / 79 µs, split over three SYNC waves.
    const train = (n: number): PigpioPulse[] => {
      const out: PigpioPulse[] = [];
      for (let i = 0; i < n; i++) {
        const period = i % 2 === 0 ? 77 : 79;
        out.push(
          { gpioOn: STEP_A, gpioOff: 0, usDelay: 4 },
          { gpioOn: 0, gpioOff: STEP_A, usDelay: period - 4 },
        );
      }
      return out;
    };
    send(fake, train(300));
    send(fake, train(300), true);
    send(fake, train(300), true);
    const us = fake.recorder.risingTimesUs(STEP_A);
    expect(us).toHaveLength(900);
    for (let i = 1; i < us.length; i++) expect((us[i] ?? 0) - (us[i - 1] ?? 0)).toBe(i % 2 === 1 ? 77 : 79);
    const ms = fake.recorder.risingTimesMs(STEP_A);
    const blurred = ms.slice(1).filter((t, i) => ![77, 79].includes((t - (ms[i] ?? 0)) * 1000));
    expect(blurred.length).toBeGreaterThan(0);
  });
});

describe("pigpio fake: onoff inputs", () => {
  it("numbers inputs chip base + BCM and reads the endstops active low", () => {
    const { fake } = setup({ at: { xMm: 0.1, yMm: 50 } });
    expect(() => new fake.onoff.Gpio(5, "in", "both")).toThrow(/EINVAL/);
    const limitX = new fake.onoff.Gpio(512 + 5, "in", "both");
    const limitY = new fake.onoff.Gpio(512 + 6, "in", "both");
    expect(limitX.readSync()).toBe(0);
    expect(limitY.readSync()).toBe(1);
    limitX.unexport();
    limitY.unexport();
  });

  it("fires watch callbacks on endstop and e-stop edges while watched", async () => {
    const { fake } = setup({ realTime: true, at: { xMm: 0.1, yMm: 50 } });
    const limitX = new fake.onoff.Gpio(512 + 5, "in", "both");
    const estop = new fake.onoff.Gpio(512 + 13, "in", "both");
    const seen: string[] = [];
    limitX.watch((_err, v) => seen.push(`x${v}`));
    estop.watch((_err, v) => seen.push(`e${v}`));
    fake.pressEstop();
    expect(seen).toEqual(["e0"]);
    fake.releaseEstop();
    send(fake, stepTrain(40, 100, 1)); // 0.5 mm off the switch in 4 ms
    await new Promise((r) => setTimeout(r, 30));
    expect(seen).toEqual(["e0", "e1", "x1"]);
    limitX.unexport();
    estop.unexport();
    fake.dispose();
  });
});
