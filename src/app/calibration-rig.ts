import { BridgePhoneAgent } from "../bridge/adapters.js";
import { PhoneBridge } from "../bridge/bridge.js";
import type { PhoneAgent } from "../calibration/agent.js";
import { type Camera, createCamera } from "../camera/index.js";
import type { Logger } from "../log/logger.js";
import type { MotionController } from "../rig/controller.js";
import { SimPhoneAgent } from "../sim/calibration-agent.js";
import type { Clock } from "../util/clock.js";
import { errorMessage, PiclawError } from "../util/errors.js";
import type { PiclawConfig } from "./config/schema.js";
import { HardwareRigStack } from "./hardware-rig-stack.js";
import { SimRigStack } from "./rig-stack.js";

/**
 * What a calibration run needs from a rig, whichever rig it is. Contract: the rig is started and
 * referenced when the setup resolves; `stop()` releases everything it holds (idempotent, never throws).
 */
export interface CalibrationRig {
  motion: MotionController;
  agent: PhoneAgent;
  /** One camera frame (JPEG) at the resolution the vision pipeline uses. */
  grabFrame: () => Promise<Buffer>;
  glassMm: { width: number; height: number };
  rigProfile: string;
  phoneModel: string;
  /** How the motion board is reached, for the progress line. */
  transport: string;
  stop(): Promise<void>;
}

export interface CalibrationRigDeps {
  clock: Clock;
  log: Logger;
  /** Resolves relative paths in the config (rig profile files). */
  cwd: string;
  stateDir: string;
  /** Environment of the camera's capture program (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** How long a real rig waits for a paired phone with the bridge page open (default 120 s). */
  pageWaitMs?: number;
  sleep: (ms: number) => Promise<void>;
  /** Progress lines (instructions to the user while waiting for the phone). */
  say: (line: string) => void;
}

/** The simulated rig: a SimRigStack with a real motion driver; the simulated phone shows the pattern. */
export async function startSimCalibrationRig(
  config: PiclawConfig,
  deps: CalibrationRigDeps,
): Promise<CalibrationRig> {
  const stack = new SimRigStack(config, { clock: deps.clock, log: deps.log, cwd: deps.cwd });
  await stack.start();
  const rig = stack.rig;
  const cam = config.sim.camera;
  return {
    motion: stack.motion,
    agent: new SimPhoneAgent(rig.phone),
    grabFrame: () => rig.captureFrame({ width: cam.width, height: cam.height }),
    glassMm: rig.phone.geometry.glassMm,
    rigProfile: rig.profile.name,
    phoneModel: rig.phone.geometry.name,
    transport: stack.transport,
    stop: () => stack.stop().catch(() => undefined),
  };
}

const DAEMON_HINT =
  "the PiClaw daemon must not run during calibration (it holds the serial port, the camera and the bridge port): " +
  "stop it (`sudo systemctl stop piclaw`), run `piclaw calibrate` again, then start it";

/**
 * The real rig (`rig.backend: hardware`): the motion board first (a daemon still holding it fails fast),
 * then the bridge (the phone must be paired and show the bridge page: it shows the pattern and reports the
 * touches), then the camera. Each failure
 * is a PiclawError saying what to do; a busy port or camera names the daemon as the likely holder.
 */
export async function startHardwareCalibrationRig(
  config: PiclawConfig,
  deps: CalibrationRigDeps,
): Promise<CalibrationRig> {
  if (!config.bridge.enabled)
    throw new PiclawError(
      "CALIBRATE_BRIDGE_DISABLED",
      "bridge.enabled: calibrating the real rig shows its pattern on the phone's bridge page and reads the touches " +
        "from it: set bridge.enabled: true, pair the phone (`piclaw bridge pair`) and open the bridge page on it",
      { key: "bridge.enabled" },
    );
  const stops: (() => Promise<unknown>)[] = [];
  const stop = async (): Promise<void> => {
    for (const fn of stops.splice(0).reverse()) await fn().catch(() => undefined);
  };
  try {
    const stack = new HardwareRigStack(config, {
      clock: deps.clock,
      log: deps.log,
      cwd: deps.cwd,
      stateDir: deps.stateDir,
    });
    await stack.start().catch((err: unknown) => {
      throw busy(err, "rig.serialPath", "RIG_SERIAL_FAILED");
    });
    stops.push(() => stack.stop());

    const bridge = new PhoneBridge({
      config: config.bridge,
      stateDir: deps.stateDir,
      log: deps.log.child("bridge"),
      clock: deps.clock,
    });
    const url = await bridge.start().catch((err: unknown) => {
      throw busy(err, "bridge.port", "CALIBRATE_BRIDGE_FAILED");
    });
    stops.push(() => bridge.stop());
    await awaitPage(bridge, url, deps);

    const camera: Camera = createCamera(config.camera, {
      clock: deps.clock,
      log: deps.log.child("camera"),
      env: deps.env ?? process.env,
    });
    stops.push(() => camera.stop());
    await camera.start().catch((err: unknown) => {
      throw busy(err, "camera", "CAMERA_CAPTURE_FAILED");
    });
    const geometry = stack.phoneGeometry;
    return {
      motion: stack.motion,
      agent: new BridgePhoneAgent(bridge),
      grabFrame: async () => (await camera.grab()).jpeg,
      glassMm: geometry.glassMm,
      rigProfile: stack.profile.name,
      phoneModel: geometry.name,
      transport: `${stack.transport}; bridge ${url}`,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Wait until a paired phone has the bridge page open; hands out a pair code when none is paired. */
async function awaitPage(bridge: PhoneBridge, url: string, deps: CalibrationRigDeps): Promise<void> {
  const waitMs = deps.pageWaitMs ?? 120_000;
  const ready = () => {
    const s = bridge.status();
    return s.pairedDevices.length > 0 && s.page.connected && s.page.info !== null;
  };
  if (ready()) return;
  if (bridge.status().pairedDevices.length === 0) {
    const code = bridge.pairCode();
    deps.say(`no phone is paired: open ${url} on the phone and enter pair code ${code.code}`);
  } else deps.say(`waiting for the bridge page: open ${url} on the phone (full screen)`);
  // Counts requested sleep, not clock time, so a hand-driven clock cannot stall the wait.
  for (let waited = 0; waited < waitMs; waited += 100) {
    await deps.sleep(100);
    if (ready()) {
      deps.say("bridge page connected");
      return;
    }
  }
  const paired = bridge.status().pairedDevices.length > 0;
  throw new PiclawError(
    paired ? "CALIBRATE_PAGE_NOT_OPEN" : "BRIDGE_NOT_PAIRED",
    paired
      ? `the bridge page did not connect within ${waitMs / 1000} s: open ${url} on the paired phone ` +
          "(full screen, screen on) and run `piclaw calibrate` again"
      : `no phone paired within ${waitMs / 1000} s: open ${url} on the phone, run \`piclaw calibrate\` again ` +
          "and enter the pair code it prints",
    { url },
  );
}

/** `err` keyed by `key`; a port or device someone else holds says that the daemon is the likely holder. */
function busy(err: unknown, key: string, fallbackCode: string): PiclawError {
  const message = errorMessage(err);
  const held = /EADDRINUSE|EBUSY|lock|busy|temporarily unavailable/i.test(message);
  const code = held ? "CALIBRATE_RIG_BUSY" : err instanceof PiclawError ? err.code : fallbackCode;
  const text = message.startsWith(`${key}`) ? message : `${key}: ${message}`;
  return new PiclawError(code, held ? `${text}. In use: ${DAEMON_HINT}` : text, { key }, { cause: err });
}
