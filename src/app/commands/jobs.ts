import { readFileSync } from "node:fs";
import type { JobType } from "../../agent/ports.js";
import type { JobsConfig } from "../../jobs/config.js";
import { parseJobsFile } from "../../jobs/format.js";
import { JobStore } from "../../jobs/store.js";
import type { Logger } from "../../log/logger.js";
import type { Clock } from "../../util/clock.js";
import { PiclawError } from "../../util/errors.js";

export interface JobsCommandDeps {
  config: JobsConfig;
  /** The appliance's time zone (`resolveTimeZone(config)`). */
  timeZone: string;
  stateDir: string;
  clock: Clock;
  log: Logger;
  write: (text: string) => void;
}

/** The flags `piclaw jobs add` reads. */
export interface JobsCommandFlags {
  id?: string | undefined;
  schedule?: string | undefined;
  type?: string | undefined;
  description?: string | undefined;
  context?: string | undefined;
}

/** `piclaw jobs list|add|validate [FILE]|fire ID|cancel ID`. Returns the exit code. */
export async function jobsCommand(
  sub: string | undefined,
  arg: string | undefined,
  flags: JobsCommandFlags,
  deps: JobsCommandDeps,
): Promise<number> {
  const store = JobStore.fromConfig(deps.config, deps);
  const file = store.file;
  switch (sub) {
    case "list":
      return list(store, deps.write);
    case "add": {
      if (!flags.id || !flags.schedule || !flags.description)
        throw new PiclawError("USAGE", "usage: piclaw jobs add --id ID --schedule CRON --description TEXT");
      const job = await store.create({
        id: flags.id,
        schedule: flags.schedule,
        description: flags.description,
        type: (flags.type ?? "periodic") as JobType,
        context: flags.context ?? flags.description,
      });
      deps.write(`added ${job.id}: next fire ${job.nextFireTime ?? "(none)"}\n`);
      return 0;
    }
    case "validate":
      return validate(arg ?? file, deps.write);
    case "fire": {
      if (!arg) throw new PiclawError("USAGE", "usage: piclaw jobs fire ID");
      const job = await store.requestFire(arg);
      deps.write(`${job.id} will fire at the runtime's next check (within a second while piclaw runs)\n`);
      return 0;
    }
    case "cancel": {
      if (!arg) throw new PiclawError("USAGE", "usage: piclaw jobs cancel ID");
      const job = await store.cancel(arg);
      deps.write(`${job.id} cancelled\n`);
      return 0;
    }
    default:
      throw new PiclawError(
        "USAGE",
        `unknown jobs command: ${sub ?? "(none)"} (list, add, validate, fire, cancel)`,
      );
  }
}

async function list(store: JobStore, write: (text: string) => void): Promise<number> {
  const jobs = await store.list();
  const problems = await store.problems();
  if (jobs.length === 0 && problems.length === 0) {
    write(
      `no jobs in ${store.file} (add one with: piclaw jobs add --id ID --schedule CRON --description TEXT)\n`,
    );
    return 0;
  }
  const rows = [
    ["ID", "TYPE", "STATUS", "SCHEDULE", "NEXT FIRE", "DESCRIPTION"],
    ...jobs.map((j) => [j.id, j.type, j.status, j.schedule, j.nextFireTime ?? "-", j.description]),
  ];
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length))) ?? [];
  for (const row of rows)
    write(
      `${row
        .map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c] ?? 0)))
        .join("  ")
        .trimEnd()}\n`,
    );
  for (const p of problems) write(`skipped: ${store.file}:${p.line}: ${p.reason}\n`);
  return 0;
}

function validate(file: string, write: (text: string) => void): number {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new PiclawError("JOBS_FILE", `cannot read ${file}: ${(err as Error).message}`, { file });
  }
  const { jobs, problems } = parseJobsFile(text);
  for (const p of problems) write(`${file}:${p.line}: ${p.reason}\n`);
  if (problems.length > 0) {
    write(`${problems.length} problem(s); ${jobs.length} good job(s) still run\n`);
    return 1;
  }
  write(`ok: ${file} (${jobs.length} job${jobs.length === 1 ? "" : "s"})\n`);
  return 0;
}
