import { processLogger } from "../../log/logger.js";
import { systemClock } from "../../util/clock.js";
import { errorMessage, PiclawError } from "../../util/errors.js";
import type { LoadedConfig } from "../config/load.js";
import { Daemon } from "../daemon.js";
import { DaemonSupervisor } from "../supervisor.js";

/**
 * Run until SIGINT/SIGTERM; a second signal forces exit. The setup wizard's rig switch restarts the
 * daemon through `DaemonSupervisor` (under systemd by exiting 75, otherwise in this process);
 * `reload` reads the config file and the wizard's overlay again.
 */
export async function runDaemon(loaded: LoadedConfig, reload: () => LoadedConfig): Promise<number> {
  const { config } = loaded;
  const log = processLogger(config.log.level, config.log.format, process.env);
  let stopping = false;
  return new Promise<number>((resolve) => {
    const supervisor = new DaemonSupervisor({
      load: reload,
      create: (l) => new Daemon(l, log, systemClock),
      underSystemd: Boolean(process.env.INVOCATION_ID),
      log: log.child("supervisor"),
      exit: (code) => {
        stopping = true;
        resolve(code);
      },
    });
    const shutdown = (reason: string, code: number) => {
      if (stopping) {
        log.warn("second signal: exiting now");
        process.exit(1);
      }
      stopping = true;
      log.info("shutdown requested", { reason });
      supervisor.stop().then(
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
    supervisor.start(loaded).catch((err) => {
      // A signal during start: the shutdown under way ends the process with its own code.
      if (stopping) return log.info("start abandoned: stop was requested", { err: errorMessage(err) });
      log.error("start failed", { err, code: err instanceof PiclawError ? err.code : undefined });
      shutdown("start failed", 1);
    });
  });
}
