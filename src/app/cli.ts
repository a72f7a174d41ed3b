import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { stringify as toYaml } from "yaml";
import { processLogger, REDACTED } from "../log/logger.js";
import { tokenFilePath } from "../mcp/config.js";
import { resolveTimeZone } from "../shared/time-zone.js";
import { SimRig } from "../sim/rig.js";
import { systemClock } from "../util/clock.js";
import { errorMessage, PiclawError } from "../util/errors.js";
import { projectRoot } from "../util/paths.js";
import { AGENT_USAGE, agentCommand } from "./commands/agent.js";
import { bridgeCommand } from "./commands/bridge.js";
import { calibrateCommand } from "./commands/calibrate.js";
import { doctorCommand } from "./commands/doctor.js";
import { JOBS_USAGE, jobsCommand } from "./commands/jobs.js";
import { sessionsCommand } from "./commands/sessions.js";
import { tokenCommand } from "./commands/token.js";
import { configReferenceMarkdown } from "./config/doc.js";
import { type LoadedConfig, loadConfig } from "./config/load.js";
import { Daemon } from "./daemon.js";

const USAGE = `usage: piclaw <command> [options]

commands:
  start                     run the appliance (on the simulated rig when rig.backend is sim)
  calibrate                 fit camera↔screen and screen↔arm, validate with taps, write the bundle
      --check               re-validate the stored bundle with fresh random taps (no refit)
  sim snapshot              write one simulated camera frame and/or the phone's screen
      --out FILE            camera frame as JPEG (default frame.jpg when --screen is not given)
      --screen FILE         the phone's own screen as PNG
      --width N --height N  frame size (default: sim.camera.width/height)
  config validate [FILE]    check a config file and print the problems
  config show               print the effective config (secrets redacted)
  config doc                print the configuration reference (Markdown)
  token create              create a bearer token for MCP clients (printed once, stored hashed)
      --label NAME          a name for it (default token-<id>)
  token list                list tokens (ids and labels, never the secrets)
  token revoke ID|LABEL     revoke a token
  token show                print the token (and bridge pair code) the SD image made at first boot
  bridge pair               print a one-time code that pairs the phone's bridge page (10 min)
  bridge devices            list paired phones
  bridge revoke ID|all      unpair a phone (or every phone)
  sessions list [N]         the N newest agent sessions (default 20): id, start, status, turns, recap
  sessions show ID          one session: summary, notes and tool calls in order, image files
${JOBS_USAGE}${AGENT_USAGE}  doctor                    check camera, motion, calibration, models, state dir, disk, provider, clock
                            (OK/WARN/FAIL with a fix per line; exit 1 on any FAIL)
  version                   print the version

options:
  --config FILE             config file (YAML); else $PICLAW_CONFIG; else built-in defaults
  -h, --help                this text
`;

/** Entry point of the `piclaw` command. Returns the process exit code (the daemon never returns). */
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
      label: { type: "string" },
      id: { type: "string" },
      schedule: { type: "string" },
      type: { type: "string" },
      description: { type: "string" },
      context: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [command, sub, arg] = positionals;
  if (values.help || !command || command === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  const load = (path = values.config): LoadedConfig =>
    loadConfig({ flagPath: path, env: process.env, cwd: process.cwd() });
  switch (command) {
    case "start":
      return runDaemon(load());
    case "calibrate": {
      const loaded = load();
      const log = processLogger("warn", "auto", process.env);
      log.addSecret(loaded.config.sim.phone.passcode);
      return calibrateCommand(loaded, values.check ?? false, {
        clock: systemClock,
        log,
        write: (text) => process.stdout.write(text),
        options: loaded.config.calibration,
      });
    }
    case "bridge": {
      const loaded = load();
      return bridgeCommand(sub, arg, {
        config: loaded.config.bridge,
        stateDir: loaded.stateDir,
        clock: systemClock,
        write: (text) => process.stdout.write(text),
      });
    }
    case "token": {
      const loaded = load();
      const tokenFile = tokenFilePath(loaded.config.mcp, loaded.stateDir);
      return tokenCommand(sub, arg, values.label, {
        tokenFile,
        clock: systemClock,
        write: (text) => process.stdout.write(text),
      });
    }
    case "jobs": {
      const loaded = load();
      return jobsCommand(sub, arg, values, {
        config: loaded.config.jobs,
        timeZone: resolveTimeZone(loaded.config),
        stateDir: loaded.stateDir,
        clock: systemClock,
        log: processLogger("warn", "auto", process.env, process.stderr),
        write: (text) => process.stdout.write(text),
      });
    }
    case "sessions":
      return sessionsCommand(sub, arg, {
        stateDir: load().stateDir,
        write: (text) => process.stdout.write(text),
      });
    case "doctor": {
      const loaded = load();
      return doctorCommand(loaded, {
        clock: systemClock,
        log: processLogger("error", "auto", process.env, process.stderr),
        write: (text) => process.stdout.write(text),
      });
    }
    case "run":
    case "say":
    case "abort": {
      const loaded = load();
      const log = processLogger(
        loaded.config.log.level === "debug" ? "debug" : "warn",
        "auto",
        process.env,
        process.stderr,
      );
      log.addSecret(loaded.config.sim.phone.passcode);
      return agentCommand(command, sub, loaded, {
        clock: systemClock,
        log,
        write: (text) => process.stdout.write(text),
        env: process.env,
      });
    }
    case "version":
      process.stdout.write(`${packageVersion()}\n`);
      return 0;
    case "config":
      return configCommand(sub, arg, load);
    case "sim":
      if (sub !== "snapshot") throw new PiclawError("USAGE", `unknown sim command: ${sub ?? "(none)"}`);
      return simSnapshot(load(), values);
    default:
      throw new PiclawError("USAGE", `unknown command: ${command} (try piclaw --help)`);
  }
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(`${projectRoot()}/package.json`, "utf8")) as { version: string };
  return pkg.version;
}

function configCommand(
  sub: string | undefined,
  arg: string | undefined,
  load: (p?: string) => LoadedConfig,
): number {
  if (sub === "doc") {
    process.stdout.write(`${configReferenceMarkdown()}\n`);
    return 0;
  }
  if (sub === "validate") {
    const loaded = load(arg);
    process.stdout.write(`ok: ${loaded.path ?? "(defaults)"}\n`);
    return 0;
  }
  if (sub === "show") {
    const { config, stateDir } = load();
    const shown = {
      ...config,
      stateDir,
      sim: { ...config.sim, phone: { ...config.sim.phone, passcode: REDACTED } },
      phone: { ...config.phone, ...(config.phone.passcode ? { passcode: REDACTED } : {}) },
    };
    process.stdout.write(toYaml(shown));
    return 0;
  }
  throw new PiclawError("USAGE", `unknown config command: ${sub ?? "(none)"} (validate, show, doc)`);
}

function positiveInt(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 16 || n > 8192)
    throw new PiclawError("USAGE", `--${name} must be an integer 16–8192`);
  return n;
}

async function simSnapshot(
  loaded: LoadedConfig,
  values: {
    out?: string | undefined;
    screen?: string | undefined;
    width?: string | undefined;
    height?: string | undefined;
  },
): Promise<number> {
  const log = processLogger("warn", "auto", process.env);
  const rig = SimRig.fromConfig(loaded.config, {
    clock: systemClock,
    log: log.child("sim"),
    cwd: process.cwd(),
  });
  await rig.start();
  try {
    const out = values.out ?? (values.screen ? undefined : "frame.jpg");
    if (values.screen) {
      writeFileSync(values.screen, await rig.screenshot());
      process.stdout.write(`screen: ${values.screen}\n`);
    }
    if (out) {
      const cam = loaded.config.sim.camera;
      const width = positiveInt("width", values.width) ?? cam.width;
      const height = positiveInt("height", values.height) ?? cam.height;
      writeFileSync(out, await rig.captureFrame({ width, height }));
      process.stdout.write(`frame: ${out} (${width}×${height})\n`);
    }
  } finally {
    await rig.stop();
  }
  return 0;
}

/** Run until SIGINT/SIGTERM; a second signal forces exit. */
async function runDaemon(loaded: LoadedConfig): Promise<number> {
  const { config } = loaded;
  const log = processLogger(config.log.level, config.log.format, process.env);
  const daemon = new Daemon(loaded, log, systemClock);
  let stopping = false;
  return new Promise<number>((resolve) => {
    const shutdown = (reason: string, code: number) => {
      if (stopping) {
        log.warn("second signal: exiting now");
        process.exit(1);
      }
      stopping = true;
      log.info("shutdown requested", { reason });
      daemon.stop().then(
        () => resolve(code),
        (err) => {
          log.error("shutdown failed", { err });
          resolve(1);
        },
      );
    };
    process.on("SIGINT", () => shutdown("SIGINT", 0));
    process.on("SIGTERM", () => shutdown("SIGTERM", 0));
    process.on("uncaughtException", (err) => {
      log.error("uncaught exception", { err });
      shutdown("uncaughtException", 1);
    });
    daemon.start().catch((err) => {
      log.error("start failed", { err, code: err instanceof PiclawError ? err.code : undefined });
      shutdown("start failed", 1);
    });
  });
}

/** Print an error the way a user should see it: code and message, no stack for expected errors. */
export function reportError(err: unknown): number {
  if (err instanceof PiclawError) {
    process.stderr.write(`piclaw: error [${err.code}]: ${err.message}\n`);
    return err.code === "USAGE" || err.code.startsWith("CONFIG") ? 2 : 1;
  }
  if (err instanceof Error && "code" in err && String(err.code).startsWith("ERR_PARSE_ARGS")) {
    process.stderr.write(`piclaw: ${err.message}\n${USAGE}`);
    return 2;
  }
  process.stderr.write(`piclaw: unexpected error: ${errorMessage(err)}\n`);
  return 1;
}
