import { mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ChatProvider } from "../agent/provider.js";
import { PhoneBridge } from "../bridge/bridge.js";
import { machineNames } from "../http/host-guard.js";
import { HttpService } from "../http/server.js";
import type { Logger } from "../log/logger.js";
import { tokenFilePath } from "../mcp/config.js";
import { createMcpEndpoint, MCP_PATH, type McpEndpoint } from "../mcp/endpoint.js";
import { TokenStore } from "../mcp/tokens.js";
import { PhoneOwner } from "../rig/owner.js";
import { FrameWorker } from "../sim/camera/index.js";
import { SimControlServer } from "../sim/control.js";
import type { SimRig } from "../sim/rig.js";
import { removeStaleTempFiles } from "../util/atomic-file.js";
import { type Clock, steadyClock } from "../util/clock.js";
import type { Dashboard } from "../web/dashboard.js";
import { AgentStack, POLL_FRAME_WIDTH } from "./agent-stack.js";
import type { LoadedConfig } from "./config/load.js";
import { daemonApiAccess, daemonApiRoutes, healthz, originReason } from "./daemon-api.js";
import { createDaemonDashboard, dashboardSessionSources } from "./dashboard-sources.js";
import { createRigStack, rigLabel } from "./hardware-rig-stack.js";
import { daemonRequestPolicy } from "./http-policy.js";
import { daemonLockPath, InstanceLock } from "./instance-lock.js";
import { type Notifier, SystemdNotifier } from "./notify.js";
import { PhoneToolStack } from "./phone-stack.js";
import { describeReadiness, Readiness } from "./readiness.js";
import type { RigStack } from "./rig-stack.js";
import { SetupWizard, type SetupWizardDeps } from "./setup/wizard.js";
import { simRoutes } from "./sim-routes.js";
import { Watchdog, watchdogPingIntervalMs } from "./watchdog.js";

/** Stand-ins at the far side of real boundaries (tests, `piclaw eval`); every field optional. */
export interface DaemonOverrides {
  /** Tells systemd READY/WATCHDOG/STOPPING; default: `systemd-notify` driven by `$NOTIFY_SOCKET`. */
  notifier?: Notifier;
  /** The agent's model; default: the configured OpenAI-compatible provider. */
  provider?: ChatProvider;
  /** Where the setup wizard looks for USB serial boards (default `/dev/serial/by-id` and `/sys`). */
  setupScan?: SetupWizardDeps["scan"];
  setupTimeouts?: SetupWizardDeps["timeouts"];
}

/**
 * The PiClaw daemon: owns the rig and the servers. `start()` brings parts up in order and `stop()`
 * tears them down in reverse, so a SIGTERM leaves no socket files or child processes behind.
 */
export class Daemon {
  private stack: RigStack | null = null;
  private readonly stopRequest = new AbortController();
  /** The rig's start while it runs: a stop waits for it to give up before tearing down. */
  private rigStarting: Promise<void> | null = null;
  private http: HttpService | null = null;
  private control: SimControlServer | null = null;
  /** Renders `/sim/frame.jpg` in a worker thread while the simulated rig runs. */
  private frames: FrameWorker | null = null;
  private mcp: McpEndpoint | null = null;
  private dashboard: Dashboard | null = null;
  /** The built-in agent, jobs and runtime, once started. */
  agent: AgentStack | null = null;
  /** The phone-side bridge page (only when `bridge.enabled`). */
  bridge: PhoneBridge | null = null;
  private phone: PhoneToolStack | null = null;
  /** The one owner of the arm (gestures from MCP, the agent and jobs take leases from it). */
  owner: PhoneOwner | null = null;
  private startedAt = 0;
  /** Rig, camera, tools, calibration, readiness: NTP steps of the wall `clock` (dates, tokens) miss it. */
  private readonly steady: Clock;
  /** Where the public HTTP server listens once started. */
  url: string | null = null;
  /** The simulator's control socket (used by the rpicam stand-ins), once started. */
  simSocket: string | null = null;

  constructor(
    private readonly loaded: LoadedConfig,
    private readonly log: Logger,
    private readonly clock: Clock,
    /** Environment (the phone's passcode may come from PICLAW_PHONE_PASSCODE). */
    private readonly env: NodeJS.ProcessEnv = process.env,
    /** Stand-ins for the far side of real boundaries (tests, `piclaw eval`). */
    private readonly overrides: DaemonOverrides = {},
  ) {
    this.steady = steadyClock(clock);
    this.readiness = new Readiness(this.steady);
  }

  private notifier: Notifier | null = null;
  private watchdog: Watchdog | null = null;
  private lock: InstanceLock | null = null;
  /** What the appliance can do now (systemd, /healthz, the dashboard and doctor all show this). */
  readonly readiness: Readiness;
  /**
   * Who restarts the daemon when the setup wizard changed the rig (`DaemonSupervisor`); without one the
   * wizard's switch says to restart by hand.
   */
  restartHandler: ((reason: string) => void) | null = null;
  /** READY=1 goes to systemd once, when the servers answer and the state is first ready or degraded. */
  private readySent = false;
  /** Why the rig came up unreferenced (nobody could vouch for its origin), until the operator confirms. */
  private originUnconfirmed: string | null = null;

  /** The simulated rig once started (tests look at its phone and gantry). */
  get simRig(): SimRig | null {
    return this.stack ? this.stack.sim : null;
  }

  async start(): Promise<void> {
    const { config, stateDir } = this.loaded;
    this.startedAt = this.steady.now();
    mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    // One daemon per state directory: a second one would take the first's sockets, token and rig.
    this.lock = new InstanceLock(daemonLockPath(stateDir));
    this.lock.acquire();
    this.readiness.onChange((now, before) => {
      if (now.state !== before.state)
        this.log.info(now.state === "ready" ? "ready" : `readiness: ${now.state}`, {
          ...(now.reason ? { reason: now.reason } : {}),
        });
      void this.announce();
    });
    this.log.info("starting", {
      configFile: this.loaded.path ?? "(defaults)",
      stateDir,
      rig: config.rig.backend,
    });
    this.log.addSecret(config.sim.phone.passcode);
    const leftovers = removeStaleTempFiles(stateDir);
    if (leftovers.length > 0) this.log.info("removed temp files of killed writers", { files: leftovers });
    // The watchdog runs from the first moment: loading models on a Pi takes a while, and a hang there
    // should be restarted too (TimeoutStartSec= bounds the start as a whole).
    const svcLog = this.log.child("service");
    this.notifier =
      this.overrides.notifier ?? new SystemdNotifier({ config: config.service, env: this.env, log: svcLog });
    const pingMs = config.service.watchdog ? watchdogPingIntervalMs(this.env, process.pid) : null;
    this.watchdog = new Watchdog(this.notifier, pingMs, svcLog);
    this.watchdog.start();

    // Relative paths in the config (the rig profile) are relative to the config file.
    const baseDir = this.loaded.path ? dirname(this.loaded.path) : process.cwd();
    // `rig.backend`: the simulated rig, or the real one (GRBL on serial / GPIO on pigpio, no simulator).
    const stack = createRigStack(config, {
      clock: this.steady,
      log: this.log,
      cwd: baseDir,
      stateDir,
      signal: this.stopRequest.signal,
      allowUnconfirmedOrigin: true,
    });
    this.stack = stack;
    this.rigStarting = stack.start();
    await this.rigStarting;
    const rig = stack.sim;
    this.originUnconfirmed = stack.originUnconfirmed ?? null;
    const confirmParked = () => this.confirmParked(stack);

    if (rig) {
      const runDir = join(stateDir, "run");
      mkdirSync(runDir, { recursive: true, mode: 0o700 });
      const socketPath = join(runDir, "sim.sock");
      rmSync(socketPath, { force: true });
      this.control = new SimControlServer(rig, this.log.child("sim.control"));
      this.simSocket = await this.control.start(socketPath);
      this.log.info("simulator control socket ready", {
        socket: this.simSocket,
        env: `PICLAW_SIM_SOCKET=${socketPath}`,
      });
    }
    // The bridge comes up before the tools: on a real phone it carries their clipboard and screenshots.
    if (config.bridge.enabled) {
      const bridgeLog = this.log.child("bridge");
      this.bridge = new PhoneBridge({ config: config.bridge, stateDir, log: bridgeLog, clock: this.clock });
      await this.bridge.start();
    }

    const mcpConfig = config.mcp;
    this.owner = new PhoneOwner(config.arm, this.clock);
    // The 12 phone tools: camera, vision models, calibration (made once on a fresh simulated rig).
    this.phone = new PhoneToolStack({
      readiness: this.readiness,
      config,
      stateDir,
      baseDir,
      rig: stack,
      motion: stack.motion,
      owner: this.owner,
      simSocket: this.simSocket,
      bridge: this.bridge,
      clock: this.steady,
      wallClock: this.clock,
      log: this.log,
      env: this.env,
    });
    await this.phone.start();
    const tokens = new TokenStore(tokenFilePath(mcpConfig, stateDir), this.clock);
    const mcp = createMcpEndpoint({
      config: mcpConfig,
      bindHost: config.server.host,
      tokens,
      tools: this.phone.tools,
      owner: this.owner,
      log: this.log.child("mcp"),
      clock: this.clock,
    });
    this.mcp = mcp;
    const phone = this.phone;
    // The built-in agent, jobs.md and the runtime that wakes sessions (off without a provider key).
    const agent = new AgentStack({
      config,
      stateDir,
      clock: this.clock,
      log: this.log,
      env: this.env,
      owner: this.owner,
      phoneTools: phone.tools,
      frames: phone.screenFrames(POLL_FRAME_WIDTH),
      ...(this.overrides.provider ? { provider: this.overrides.provider } : {}),
    });
    this.agent = agent;
    await agent.start();
    if (config.dashboard.enabled) {
      this.dashboard = createDaemonDashboard({
        config,
        stateDir,
        motion: stack.motion,
        travelMm: stack.profile.travelMm,
        owner: this.owner,
        look: (signal) => phone.look(signal),
        extra: { jobs: () => agent.jobs.list(), ...dashboardSessionSources(agent.sessions) },
        bundleInUse: () => phone.currentBundle,
        readiness: this.readiness,
        calibration: () => phone.calibration,
        rigLabel: () => rigLabel(stack),
        confirmParked,
        tokens,
        clock: this.clock,
        log: this.log.child("dashboard"),
      });
      await this.dashboard.start();
    }

    // Who may use the daemon's API (`piclaw run`, `piclaw calibrate`): the dashboard's rules, or the CLI token.
    const apiAccess = daemonApiAccess({
      config,
      stateDir,
      dashboard: this.dashboard,
      tokens,
      clock: this.clock,
    });
    const wizard = config.dashboard.enabled
      ? new SetupWizard({
          config,
          stateDir,
          cwd: baseDir,
          env: this.env,
          tokens,
          bridge: () => this.bridge,
          bundleInUse: () => phone.currentBundle,
          grabFrame: () => phone.grabJpeg(),
          rigLabel: () => rigLabel(stack),
          requestRestart: (reason) => this.requestRestart(reason),
          clock: this.clock,
          log: this.log.child("setup"),
          ...(this.overrides.setupScan ? { scan: this.overrides.setupScan } : {}),
          ...(this.overrides.setupTimeouts ? { timeouts: this.overrides.setupTimeouts } : {}),
        })
      : null;
    this.http = new HttpService(
      {
        "/healthz": healthz({
          readiness: this.readiness,
          backend: config.rig.backend,
          uptimeS: () => Math.round((this.steady.now() - this.startedAt) / 1000),
        }),
        ...(rig
          ? simRoutes({ rig, frames: this.startFrames(rig), camera: config.sim.camera, clock: this.steady })
          : {}),
      },
      this.log.child("http"),
      {
        [MCP_PATH]: (req, res) => mcp.handle(req, res),
        ...this.dashboard?.routes(),
        ...daemonApiRoutes({
          config,
          access: apiAccess,
          agent,
          owner: this.owner,
          confirmParked,
          calibration: () => phone.calibration,
          wizard,
          log: this.log,
        }),
      },
      {
        policy: daemonRequestPolicy({
          bindHost: config.server.host,
          mcp: config.mcp,
          localNames: machineNames(),
          auth: apiAccess.auth,
        }),
      },
    );
    this.url = await this.http.start({ host: config.server.host, port: config.server.port });
    this.log.info("serving", {
      url: this.url,
      endpoints: [
        "/healthz",
        ...(rig ? ["/sim/screen.png", "/sim/frame.jpg", "/sim/truth.json"] : []),
        MCP_PATH,
      ],
    });
    this.log.info("mcp endpoint", { url: `${this.url}${MCP_PATH}`, ...mcp.describe() });
    if (this.dashboard) this.log.info("dashboard", { url: `${this.url}/`, ...this.dashboard.describe() });
    // Servers answer now. Ready unless the phone tools wait for a calibration (calibrating) or cannot act
    // without one (degraded) — those states were set by the phone stack and end on their own.
    if (this.readiness.snapshot.state === "starting") {
      if (this.originUnconfirmed) this.readiness.set("degraded", originReason(this.originUnconfirmed));
      else this.readiness.set("ready");
    } else await this.announce();
  }

  /**
   * The operator confirmed the carriage at park (dashboard, API): reference there; a start that was
   * degraded only for want of that is ready now.
   */
  private async confirmParked(stack: RigStack): Promise<void> {
    await stack.motion.confirmParked();
    const pending = this.originUnconfirmed;
    this.originUnconfirmed = null;
    const r = this.readiness.snapshot;
    if (pending && r.state === "degraded" && r.reason === originReason(pending)) this.readiness.set("ready");
  }

  /** Ask the supervisor to restart the daemon (the wizard changed the config overlay). */
  private requestRestart(reason: string): void {
    if (this.restartHandler) this.restartHandler(reason);
    else
      this.log.warn(
        "restart needed: the config overlay changed, but nothing here restarts the daemon: restart it yourself",
        { reason },
      );
  }

  /** Start the worker that renders the simulated camera's frames from the rig's scene snapshots. */
  private startFrames(rig: SimRig): FrameWorker {
    const frames = new FrameWorker((query) => rig.sceneSnapshot(query));
    frames.start();
    this.frames = frames;
    return frames;
  }

  /**
   * Tell systemd where we stand: READY=1 (once) when the servers answer and the state is ready or
   * degraded — a degraded appliance is up and says why in STATUS= — and STATUS= on every change.
   */
  private async announce(): Promise<void> {
    const r = this.readiness.snapshot;
    if (!this.url || !this.notifier) return;
    const status = `serving ${this.url}${MCP_PATH} (${describeReadiness(r)})`;
    if (!this.readySent && (r.state === "ready" || r.state === "degraded")) {
      this.readySent = true;
      await this.notifier.notify({ READY: "1", STATUS: status });
    } else if (r.state !== "stopping") {
      await this.notifier.notify({ STATUS: status });
    }
  }

  async stop(): Promise<void> {
    // A start still in progress must not connect or reference the rig after this (issue 14 item 6).
    this.stopRequest.abort();
    await this.rigStarting?.catch(() => undefined);
    this.log.info("stopping");
    this.readiness.set("stopping");
    await this.notifier?.notify({ STOPPING: "1", STATUS: "stopping" });
    await this.bridge?.stop();
    this.bridge = null;
    await this.agent?.stop();
    this.agent = null;
    await this.mcp?.close();
    this.mcp = null;
    await this.dashboard?.stop();
    this.dashboard = null;
    await this.http?.stop();
    this.http = null;
    await this.frames?.stop();
    this.frames = null;
    await this.phone?.stop();
    this.phone = null;
    await this.control?.stop();
    this.control = null;
    await this.stack?.stop();
    this.stack = null;
    this.watchdog?.stop();
    this.watchdog = null;
    await this.notifier?.close();
    this.notifier = null;
    this.lock?.release();
    this.lock = null;
    this.log.info("stopped");
  }
}
