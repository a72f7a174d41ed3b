import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { dirname, join } from "node:path";
import { type AgentConfig, activeProvider } from "../../agent/config.js";
import { resolveApiKey } from "../../agent/provider.js";
import { bundlePaths, readBundle } from "../../calibration/bundle.js";
import { type Camera, createCamera } from "../../camera/index.js";
import { localBaseUrl } from "../../http/server.js";
import type { Logger } from "../../log/logger.js";
import { FontBook } from "../../shared/fonts.js";
import { IPHONE_61 } from "../../shared/phone-model.js";
import { SimControlServer } from "../../sim/control.js";
import type { Clock } from "../../util/clock.js";
import { errorMessage } from "../../util/errors.js";
import { projectRoot } from "../../util/paths.js";
import { createVision } from "../../vision/create.js";
import type { LoadedConfig } from "../config/load.js";
import {
  type CheckOutcome,
  calibrationCheck,
  cameraCheck,
  clockCheck,
  type DiskSpace,
  type DoctorCheck,
  daemonCheck,
  diskSpaceCheck,
  motionCheck,
  providerCheck,
  runDoctor,
  stateDirCheck,
  visionCheck,
} from "../doctor.js";
import { createRigStack } from "../hardware-rig-stack.js";
import { SIM_CAMERA_MAX_FPS } from "../phone-stack.js";
import type { RigStack } from "../rig-stack.js";

type FetchFn = (url: string, init: { signal: AbortSignal }) => Promise<Response>;

export interface DoctorCommandDeps {
  clock: Clock;
  log: Logger;
  write: (text: string) => void;
  /** HTTP client for the daemon and provider checks (default: global fetch). */
  fetch?: FetchFn;
  /** `timedatectl show -p NTPSynchronized --value` (default: runs it; null when unavailable). */
  ntpSynchronized?: () => Promise<string | null>;
  /** Environment the provider's API key may come from (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Free space of a path's file system (default: statfs). */
  diskSpace?: (path: string) => DiskSpace;
}

/**
 * `piclaw doctor` for a config: every check of doctor.ts, in an order where later checks can use what
 * earlier ones started (the simulated rig). On the simulated rig doctor runs its own rig, camera
 * stand-in and models, so it works whether or not the daemon runs. Returns the exit code.
 */
export async function doctorCommand(loaded: LoadedConfig, deps: DoctorCommandDeps): Promise<number> {
  const { config, stateDir } = loaded;
  const { clock, log } = deps;
  const fetchFn: FetchFn = deps.fetch ?? ((url, init) => fetch(url, init));
  const now = () => clock.now();
  const simulated = config.rig.backend === "sim";
  const baseDir = loaded.path ? dirname(loaded.path) : process.cwd();
  let stack: RigStack | null = null;
  let control: SimControlServer | null = null;
  const scratch = mkdtempSync(join(tmpdir(), "piclaw-doctor-"));

  const afterRig = (name: string, run: (s: RigStack) => Promise<CheckOutcome>): DoctorCheck => ({
    name,
    run: async () =>
      stack
        ? run(stack)
        : { status: "fail", detail: "not checked: the rig did not start", fix: "fix the motion check first" },
  });

  const checks: DoctorCheck[] = [
    daemonCheck(healthUrl(config.server.host, config.server.port), fetchFn),
    stateDirCheck(
      stateDir,
      {
        mkdir: (p) => mkdirSync(p, { recursive: true, mode: 0o700 }),
        writeFile: (p, d) => writeFileSync(p, d),
        remove: (p) => rmSync(p, { force: true }),
      },
      userInfo().username,
    ),
    diskSpaceCheck(stateDir, deps.diskSpace ?? statfsSpace, config.service.doctor),
    motionCheck(async () => {
      const s = createRigStack(config, { clock, log: log.child("rig"), cwd: baseDir, stateDir });
      // Only a started rig is handed on: a half-started one (no profile, no port) has nothing to ask.
      await s.start().catch(async (err: unknown) => {
        await s.stop().catch(() => undefined);
        throw err;
      });
      stack = s;
      return { status: await s.motion.status(), via: s.transport };
    }, simulated),
    afterRig("camera", async (s) => {
      let camera: Camera;
      if (s.sim) {
        control = new SimControlServer(s.sim, log.child("sim.control"));
        const socket = await control.start(join(scratch, "sim.sock"));
        const bin = join(projectRoot(), "bin", "sim");
        camera = createCamera(
          {
            ...config.camera,
            vidBinary: join(bin, "rpicam-vid"),
            stillBinary: join(bin, "rpicam-still"),
            framerate: Math.min(config.camera.framerate, SIM_CAMERA_MAX_FPS),
          },
          { clock, log: log.child("camera"), env: { PICLAW_SIM_SOCKET: socket } },
        );
      } else {
        // The real camera (camera.vidBinary); it fails here when the daemon holds it: the fix says so.
        camera = createCamera(config.camera, { clock, log: log.child("camera"), env: process.env });
      }
      const what = simulated ? "simulated camera (rpicam-vid stand-in)" : "camera";
      return cameraCheck(
        camera,
        {
          width: config.camera.width,
          height: config.camera.height,
          timeoutMs: Math.max(config.camera.startupTimeoutMs, config.camera.grabTimeoutMs),
          what,
          simulated,
        },
        now,
      ).run();
    }),
    calibrationCheck({
      read: () => readBundle(bundlePaths(stateDir).current),
      now,
      maxAgeDays: config.service.doctor.calibrationMaxAgeDays,
      simulated,
      expected: () =>
        stack
          ? { rigProfile: stack.profile.name, phoneModel: stack.phoneGeometry.name }
          : {
              rigProfile: config.rig.profile,
              phoneModel: simulated ? config.sim.phone.model : config.phone.model,
            },
    }),
    visionCheck(
      () =>
        createVision(config, {
          fonts: new FontBook(),
          clock,
          // Only sizes the pipeline's output; the models load the same for any phone.
          screenPx: stack ? stack.phoneGeometry.screenPx : IPHONE_61.screenPx,
        }),
      now,
    ),
    providerCheck(
      providerBaseUrl(config.agent),
      fetchFn,
      5000,
      missingKey(config.agent, deps.env ?? process.env, stateDir),
    ),
    clockCheck(deps.ntpSynchronized ?? timedatectlNtp),
  ];
  try {
    return (await runDoctor(checks, deps.write)).exitCode;
  } finally {
    await (control as SimControlServer | null)?.stop().catch(() => undefined);
    await (stack as RigStack | null)?.stop().catch(() => undefined);
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The daemon's /healthz on this machine (a wildcard bind is reached on loopback); null for port 0. */
export function healthUrl(host: string, port: number): string | null {
  return port === 0 ? null : `${localBaseUrl(host, port)}/healthz`;
}

/** The active provider's base URL (`agent.providers[agent.provider].baseUrl`). */
export function providerBaseUrl(agent: AgentConfig): string | null {
  return activeProvider(agent).settings.baseUrl || null;
}

/** Why the agent has no API key (it is then off), or null when the key resolves. Never the key itself. */
export function missingKey(agent: AgentConfig, env: NodeJS.ProcessEnv, stateDir: string): string | null {
  try {
    resolveApiKey(activeProvider(agent).settings, env, stateDir);
    return null;
  } catch (err) {
    return errorMessage(err);
  }
}

function statfsSpace(path: string): DiskSpace {
  // The state dir may not exist yet: measure the nearest existing parent.
  let p = path;
  for (;;) {
    try {
      const s = statfsSync(p);
      return { freeBytes: s.bavail * s.bsize, totalBytes: s.blocks * s.bsize };
    } catch (err) {
      const parent = dirname(p);
      if (parent === p) throw err;
      p = parent;
    }
  }
}

function timedatectlNtp(): Promise<string | null> {
  return new Promise((resolve) => {
    execFile("timedatectl", ["show", "-p", "NTPSynchronized", "--value"], { timeout: 3000 }, (err, stdout) =>
      resolve(err ? null : stdout.trim() || null),
    );
  });
}
