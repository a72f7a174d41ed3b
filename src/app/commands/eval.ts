import type { Logger } from "../../log/logger.js";
import type { Clock } from "../../util/clock.js";
import { PiclawError } from "../../util/errors.js";
import type { LoadedConfig } from "../config/load.js";
import { resultsTable, runEval } from "../eval/run.js";
import { EVAL_TASKS } from "../eval/tasks.js";

export interface EvalCommandDeps {
  clock: Clock;
  log: Logger;
  write: (text: string) => void;
  /** Progress lines (stderr), so `--json` output stays clean. */
  progress: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

export interface EvalFlags {
  baseline?: boolean;
  task?: string;
  json?: boolean;
  verbose?: boolean;
}

/**
 * `piclaw eval [--baseline] [--task ID,…] [--json]`: the task suite on the simulated phone, each task in
 * a fresh simulated appliance; prints success, status, turns, tokens and time per task. Exit 0 when
 * every task passed, 1 otherwise. `--baseline` uses the scripted listing-only policy instead of the
 * configured provider (no key needed).
 */
export async function evalCommand(
  loaded: LoadedConfig,
  flags: EvalFlags,
  deps: EvalCommandDeps,
): Promise<number> {
  const wanted = flags.task
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = wanted?.filter((id) => !EVAL_TASKS.some((t) => t.id === id)) ?? [];
  if (unknown.length > 0)
    throw new PiclawError(
      "USAGE",
      `unknown task(s): ${unknown.join(", ")}; tasks: ${EVAL_TASKS.map((t) => t.id).join(", ")}`,
    );
  const tasks = wanted ? EVAL_TASKS.filter((t) => wanted.includes(t.id)) : EVAL_TASKS;
  deps.progress(
    `piclaw eval: ${tasks.length} task(s) on the simulated phone with ${flags.baseline ? "the scripted listing-only baseline" : "the configured provider"}\n`,
  );
  const results = await runEval({
    loaded,
    tasks,
    baseline: flags.baseline ?? false,
    verbose: flags.verbose ?? false,
    log: deps.log,
    clock: deps.clock,
    env: deps.env,
    progress: (line) => deps.progress(`${line}\n`),
  });
  deps.write(flags.json ? `${JSON.stringify({ results }, null, 2)}\n` : `${resultsTable(results)}\n`);
  return results.every((r) => r.ok) ? 0 : 1;
}
