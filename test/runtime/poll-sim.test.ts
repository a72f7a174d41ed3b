import { describe, expect, it } from "vitest";
import { runtimeConfigSchema } from "../../src/runtime/config.js";
import { PollHook } from "../../src/runtime/poll.js";
import { Runtime } from "../../src/runtime/runtime.js";
import type { SimPhone } from "../../src/sim/phone/index.js";
import { ManualClock } from "../../src/util/clock.js";
import { quietLog } from "../fakes/log.js";
import { fastRig } from "../tools/fast-rig.js";
import { FakeRunner } from "./fakes.js";
import { simScreenFrames } from "./sim-screen.js";
import { VirtualTime } from "./virtual-time.js";

/** fastRig's clock starts here (ManualClock's default): 09:41:00 UTC, the phone shows UTC. */
const START = new ManualClock().now();

/** The phone's status-bar (or lock-screen) clock text. */
function shownTime(phone: SimPhone): string {
  const el = phone.truth().elements.find((e) => e.id === "status.time" || e.id === "lock.time");
  return el?.label ?? "";
}

/** The runtime with the poll hook over the simulated camera, on the rig's clock in virtual time. */
function pollRuntime(rig: ReturnType<typeof fastRig>) {
  const time = new VirtualTime(rig.clock);
  const runner = new FakeRunner(time, 20_000);
  const frames = simScreenFrames(rig.phone, rig.clock);
  const config = runtimeConfigSchema.parse({});
  const poll = new PollHook({ frames, clock: rig.clock, log: quietLog() }, config.poll);
  const runtime = new Runtime(
    { runner, hooks: [poll], clock: rig.clock, timers: time, log: quietLog() },
    { tickMs: config.tickMs, cooldownMs: config.cooldownMs },
  );
  time.quiesce = async () => {
    await runtime.settled();
  };
  return { time, runner, runtime, frames };
}

describe("poll hook on the simulated rig", () => {
  it("a clock tick alone wakes nothing; a notification then wakes exactly one session", async () => {
    const notifyAt = START + 100_000;
    const rig = fastRig({
      phone: { notifications: [{ atMs: notifyAt, app: "messages", from: "Anna", text: "Lunch at 1?" }] },
    });
    expect((await rig.call("unlock_phone")).isError).toBeFalsy();
    expect(rig.phone.truth().screen).toBe("home");
    const { time, runner, runtime, frames } = pollRuntime(rig);
    runtime.start();
    // Across the 09:42 minute boundary: the status bar's clock changes, nothing else does.
    const before = shownTime(rig.phone);
    await time.advance(START + 90_000 - time.now());
    expect(shownTime(rig.phone)).not.toBe(before);
    expect(frames.grabs).toBeGreaterThan(40);
    expect(runner.runs).toHaveLength(0);
    // The message arrives at +100 s: banner, then a badge on Messages in the dock.
    await time.advance(40_000);
    expect(runner.runs).toHaveLength(1);
    const wake = runner.runs[0]?.wake;
    expect(wake?.at).toBeGreaterThanOrEqual(notifyAt);
    expect(wake?.at).toBeLessThanOrEqual(notifyAt + 5_000); // while the 5 s banner is still up
    expect(wake?.triggers).toHaveLength(1);
    expect(wake?.triggers[0]).toMatchObject({ kind: "poll", reason: expect.stringContaining("banner") });
    await runtime.stop();
  }, 120_000);

  it("the lock screen's big clock changing minute does not wake a session", async () => {
    const rig = fastRig();
    expect(rig.phone.truth().screen).toBe("lock");
    const { time, runner, runtime, frames } = pollRuntime(rig);
    runtime.start();
    const before = shownTime(rig.phone);
    await time.advance(80_000);
    expect(shownTime(rig.phone)).not.toBe(before);
    expect(frames.grabs).toBeGreaterThan(70);
    expect(runner.runs).toHaveLength(0);
    await runtime.stop();
  }, 120_000);

  it("a message arriving while the screen is off lights it up and wakes exactly one session", async () => {
    const notifyAt = START + 20_000;
    const rig = fastRig({
      phone: { notifications: [{ atMs: notifyAt, app: "messages", from: "Bob", text: "Call me" }] },
    });
    rig.phone.pressSideButton();
    expect(rig.phone.truth().screen).toBe("off");
    const { time, runner, runtime } = pollRuntime(rig);
    runtime.start();
    await time.advance(19_000);
    expect(runner.runs).toHaveLength(0);
    await time.advance(45_000);
    expect(rig.phone.truth().screen).toBe("lock");
    expect(runner.runs).toHaveLength(1);
    expect(runner.runs[0]?.wake.at).toBeLessThanOrEqual(notifyAt + 5_000);
    await runtime.stop();
  }, 120_000);
});
