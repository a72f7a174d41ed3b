import type { Logger } from "../log/logger.js";
import { errorMessage } from "../util/errors.js";
import type { LoadedConfig } from "./config/load.js";
import type { Daemon } from "./daemon.js";

/**
 * The exit status that asks systemd for a fresh start: EX_TEMPFAIL (75). The unit has
 * `Restart=on-failure` (RestartSec=5), which restarts on any non-zero status except 2 (a config error:
 * RestartPreventExitStatus=2).
 *
 * Why exit under systemd rather than restart inside the process: the new rig may need what only a new
 * process has — a serial port and camera the kernel released completely, native modules (pigpio)
 * loaded afresh — and systemd then tracks the new start (READY=1, the watchdog, TimeoutStartSec=) as a
 * start, which a restart inside one process would hide from it. Without systemd (`npm start` in a
 * terminal) nobody would start us again, so there the daemon is stopped and started in this process:
 * `Daemon.stop()` leaves no socket, child or handle behind (the tests start and stop many daemons in one
 * process), and the terminal keeps the same process and Ctrl-C.
 */
export const RESTART_EXIT_CODE = 75;

export interface SupervisorDeps {
  /** Read the config again (file + the wizard's overlay). */
  load: () => LoadedConfig;
  create: (loaded: LoadedConfig) => Daemon;
  /** Under systemd (`$INVOCATION_ID`): restart by exiting with RESTART_EXIT_CODE. */
  underSystemd: boolean;
  log: Logger;
  /** Called once when the process should end, with its exit status. */
  exit: (code: number) => void;
}

/** Runs one daemon at a time and restarts it when the daemon asks (the setup wizard's switch). */
export class DaemonSupervisor {
  private current: Daemon | null = null;
  private restarting: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly deps: SupervisorDeps) {}

  get daemon(): Daemon | null {
    return this.current;
  }

  async start(loaded: LoadedConfig): Promise<void> {
    const daemon = this.deps.create(loaded);
    daemon.restartHandler = (reason) => {
      this.restarting ??= this.restart(reason).finally(() => {
        this.restarting = null;
      });
    };
    this.current = daemon;
    await daemon.start();
  }

  /** Resolves once a restart in progress has finished (the new daemon serves, or the exit was asked). */
  async settled(): Promise<void> {
    await this.restarting;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.restarting?.catch(() => undefined);
    await this.current?.stop();
    this.current = null;
  }

  private async restart(reason: string): Promise<void> {
    const { log } = this.deps;
    log.info("restarting", {
      reason,
      how: this.deps.underSystemd ? `exit ${RESTART_EXIT_CODE} for systemd` : "in this process",
    });
    await this.current?.stop();
    this.current = null;
    if (this.stopped) return;
    if (this.deps.underSystemd) return this.deps.exit(RESTART_EXIT_CODE);
    let loaded: LoadedConfig;
    try {
      loaded = this.deps.load();
      await this.start(loaded);
      log.info("restarted", { rig: loaded.config.rig.backend, overlay: loaded.overlayPath ?? null });
    } catch (err) {
      log.error(
        "the restarted daemon did not start: fix the cause below, or delete the setup wizard's config overlay " +
          "(<stateDir>/config-overlay.yaml) to go back, then start piclaw again",
        { err: errorMessage(err) },
      );
      const failed = this.current as Daemon | null; // set by start() before it threw
      await failed?.stop().catch(() => undefined);
      this.current = null;
      this.deps.exit(1);
    }
  }
}
