import type { SessionRunner } from "../agent/ports.js";
import type { Logger } from "../log/logger.js";
import type { TimerScheduler } from "../rig/owner.js";
import type { Clock } from "../util/clock.js";
import type { RuntimeConfig } from "./config.js";
import type { ScreenFrameSource } from "./frames.js";
import { cronHook, type DueJobSource, type TriggerHook } from "./hooks.js";
import { PollHook } from "./poll.js";
import { Runtime } from "./runtime.js";

export type { RuntimeConfig } from "./config.js";
export type { ScreenFrameSource } from "./frames.js";
export type { DueJobSource } from "./hooks.js";
export { Runtime, type RuntimeStatus } from "./runtime.js";

export interface CreateRuntimeDeps {
  runner: SessionRunner;
  /** The jobs scheduler (`JobScheduler`); null = no cron hook. */
  jobs: DueJobSource | null;
  /** Rectified screen frames (`cameraScreenFrames`); null = no poll hook. */
  frames: ScreenFrameSource | null;
  /** True while anyone holds or waits for the arm, e.g. `() => owner.heldBy !== null || owner.queueLength > 0`. */
  armInUse?: () => boolean;
  clock: Clock;
  timers: TimerScheduler;
  log: Logger;
}

/** The runtime the config describes: cron (when a scheduler is given) and poll (when enabled and frames exist). */
export function createRuntime(config: RuntimeConfig, deps: CreateRuntimeDeps): Runtime {
  const log = deps.log.child("runtime");
  const hooks: TriggerHook[] = [];
  if (deps.jobs) hooks.push(cronHook(deps.jobs));
  if (config.poll.enabled && deps.frames)
    hooks.push(
      new PollHook(
        {
          frames: deps.frames,
          clock: deps.clock,
          log: log.child("poll"),
          ...(deps.armInUse ? { armInUse: deps.armInUse } : {}),
        },
        config.poll,
      ),
    );
  return new Runtime(
    { runner: deps.runner, hooks, clock: deps.clock, timers: deps.timers, log },
    { tickMs: config.tickMs, cooldownMs: config.cooldownMs },
  );
}
