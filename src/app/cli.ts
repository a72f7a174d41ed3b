import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { processLogger } from "../log/logger.js";
import { systemClock } from "../util/clock.js";
import { errorMessage, PiclawError } from "../util/errors.js";
import { projectRoot } from "../util/paths.js";
import type { LoadedConfig } from "./config/load.js";
import { commandUsage, usage } from "./usage.js";

/**
 * Entry point of the `piclaw` command. Returns the process exit code (the daemon never returns).
 * Each command's module (and the config schema behind it) is imported only when that command runs, so
 * `piclaw --help`, `piclaw CMD --help` and `piclaw version` start in a fraction of a second.
 */
export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      config: { type: "string" },
      out: { type: "string" },
      screen: { type: "string" },
      width: { type: "string" },
      height: { type: "string" },
      check: { type: "boolean" },
      apply: { type: "boolean" },
      yes: { type: "boolean" },
      parked: { type: "boolean" },
      label: { type: "string" },
      id: { type: "string" },
      schedule: { type: "string" },
      type: { type: "string" },
      description: { type: "string" },
      context: { type: "string" },
      baseline: { type: "boolean" },
      task: { type: "string" },
      json: { type: "boolean" },
      verbose: { type: "boolean", short: "v" },
      camera: { type: "boolean" },
      homography: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [command, sub, arg] = positionals;
  if (!command || command === "help") {
    process.stdout.write(usage());
    return 0;
  }
  if (values.help) {
    const text = commandUsage(command);
    if (text === null) throw new PiclawError("USAGE", `unknown command: ${command} (try piclaw --help)`);
    process.stdout.write(text);
    return 0;
  }
  const load = async (path = values.config): Promise<LoadedConfig> => {
    const { loadConfig } = await import("./config/load.js");
    return loadConfig({ flagPath: path, env: process.env, cwd: process.cwd() });
  };
  const write = (text: string) => process.stdout.write(text);
  switch (command) {
    case "start": {
      const { runDaemon } = await import("./commands/start.js");
      const { loadConfig } = await import("./config/load.js");
      return runDaemon(await load(), () =>
        loadConfig({ flagPath: values.config, env: process.env, cwd: process.cwd() }),
      );
    }
    case "calibrate": {
      const loaded = await load();
      const { calibrateCommand } = await import("./commands/calibrate.js");
      const log = processLogger("warn", "auto", process.env);
      log.addSecret(loaded.config.sim.phone.passcode);
      return calibrateCommand(loaded, values.check ?? false, {
        clock: systemClock,
        log,
        write,
        options: loaded.config.calibration,
      });
    }
    case "bridge": {
      const loaded = await load();
      const { bridgeCommand } = await import("./commands/bridge.js");
      return bridgeCommand(sub, arg, {
        config: loaded.config.bridge,
        stateDir: loaded.stateDir,
        clock: systemClock,
        write,
      });
    }
    case "token": {
      const loaded = await load();
      const [{ tokenCommand }, { tokenFilePath }] = await Promise.all([
        import("./commands/token.js"),
        import("../mcp/config.js"),
      ]);
      return tokenCommand(sub, arg, values.label, {
        tokenFile: tokenFilePath(loaded.config.mcp, loaded.stateDir),
        clock: systemClock,
        write,
      });
    }
    case "jobs": {
      const loaded = await load();
      const [{ jobsCommand }, { resolveTimeZone }] = await Promise.all([
        import("./commands/jobs.js"),
        import("../shared/time-zone.js"),
      ]);
      return jobsCommand(sub, arg, values, {
        config: loaded.config.jobs,
        timeZone: resolveTimeZone(loaded.config),
        stateDir: loaded.stateDir,
        clock: systemClock,
        log: processLogger("warn", "auto", process.env, process.stderr),
        write,
      });
    }
    case "sessions": {
      const { stateDir } = await load();
      const { sessionsCommand } = await import("./commands/sessions.js");
      return sessionsCommand(sub, arg, { stateDir, write });
    }
    case "doctor": {
      const loaded = await load();
      const { doctorCommand } = await import("./commands/doctor.js");
      return doctorCommand(loaded, {
        clock: systemClock,
        log: processLogger("error", "auto", process.env, process.stderr),
        write,
      });
    }
    case "run":
    case "say":
    case "abort": {
      const loaded = await load();
      const { agentCommand } = await import("./commands/agent.js");
      const log = processLogger(
        loaded.config.log.level === "debug" ? "debug" : "warn",
        "auto",
        process.env,
        process.stderr,
      );
      log.addSecret(loaded.config.sim.phone.passcode);
      return agentCommand(command, sub, loaded, { clock: systemClock, log, write, env: process.env });
    }
    case "eval": {
      const loaded = await load();
      const { evalCommand } = await import("./commands/eval.js");
      const log = processLogger("error", "auto", process.env, process.stderr);
      log.addSecret(loaded.config.sim.phone.passcode);
      return evalCommand(loaded, values, {
        clock: systemClock,
        log,
        write,
        progress: (text) => process.stderr.write(text),
        env: process.env,
      });
    }
    case "rig": {
      const loaded = await load();
      const { rigCommand } = await import("./commands/rig.js");
      // A running daemon is found by its lock (as `piclaw calibrate` does), ready or not: it holds the port.
      return rigCommand(sub, values, loaded, {
        log: processLogger("warn", "auto", process.env, process.stderr),
        write,
      });
    }
    case "listing": {
      const loaded = await load();
      const { listingCommand } = await import("./commands/listing.js");
      return listingCommand(positionals.slice(1), values, {
        config: loaded.config,
        clock: systemClock,
        write,
      });
    }
    case "version":
      write(`${packageVersion()}\n`);
      return 0;
    case "config": {
      const { configCommand } = await import("./commands/config.js");
      return configCommand(sub, arg, load);
    }
    case "sim": {
      if (sub !== "snapshot") throw new PiclawError("USAGE", `unknown sim command: ${sub ?? "(none)"}`);
      const { simSnapshot } = await import("./commands/sim.js");
      return simSnapshot(await load(), values);
    }
    default:
      throw new PiclawError("USAGE", `unknown command: ${command} (try piclaw --help)`);
  }
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(`${projectRoot()}/package.json`, "utf8")) as { version: string };
  return pkg.version;
}

/** Print an error the way a user should see it: code and message, no stack for expected errors. */
export function reportError(err: unknown): number {
  if (err instanceof PiclawError) {
    process.stderr.write(`piclaw: error [${err.code}]: ${err.message}\n`);
    return err.code === "USAGE" || err.code.startsWith("CONFIG") ? 2 : 1;
  }
  if (err instanceof Error && "code" in err && String(err.code).startsWith("ERR_PARSE_ARGS")) {
    process.stderr.write(`piclaw: ${err.message}\n${usage()}`);
    return 2;
  }
  process.stderr.write(`piclaw: unexpected error: ${errorMessage(err)}\n`);
  return 1;
}
