import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JobScheduler } from "../../src/jobs/scheduler.js";
import { JobStore } from "../../src/jobs/store.js";
import { Logger } from "../../src/log/logger.js";
import { ManualClock } from "../../src/util/clock.js";

/** Log lines a test can inspect. */
export function memoryLog(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const log = Logger.create({
    level: "info",
    format: "json",
    sink: { write: (l) => lines.push(l) },
    now: () => 0,
  });
  return { log, lines };
}

export function tempJobsFile(): string {
  return join(mkdtempSync(join(tmpdir(), "piclaw-jobs-")), "jobs.md");
}

export interface Rig {
  file: string;
  clock: ManualClock;
  store: JobStore;
  scheduler: JobScheduler;
  lines: string[];
}

/** A store + scheduler on `file` (a fresh temp file by default) with a manual clock at `startIso`. */
export function jobsRig(
  startIso: string,
  options: { timeZone?: string; catchUpWindowMinutes?: number; file?: string; clock?: ManualClock } = {},
): Rig {
  const file = options.file ?? tempJobsFile();
  const clock = options.clock ?? new ManualClock(Date.parse(startIso));
  const { log, lines } = memoryLog();
  const store = new JobStore({
    file,
    clock,
    timeZone: options.timeZone ?? "UTC",
    log,
    catchUpWindowMinutes: options.catchUpWindowMinutes ?? 60,
    lockStaleMs: 30_000,
    lockTimeoutMs: 10_000,
  });
  return { file, clock, store, scheduler: new JobScheduler(store, log), lines };
}

/**
 * Step the clock from now to `untilIso` in `stepMs` steps, calling collectDue at each, and return
 * every fire as `id@now` (ISO, UTC) — the way the runtime's once-a-second loop sees it.
 */
export async function runUntil(rig: Rig, untilIso: string, stepMs = 1000): Promise<string[]> {
  const until = Date.parse(untilIso);
  const fired: string[] = [];
  while (rig.clock.now() <= until) {
    for (const due of await rig.scheduler.collectDue(rig.clock.now()))
      fired.push(`${due.job.id}@${new Date(rig.clock.now()).toISOString().slice(0, 19)}Z`);
    rig.clock.advance(stepMs);
  }
  return fired;
}
