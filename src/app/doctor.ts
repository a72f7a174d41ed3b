/**
 * `piclaw doctor`: small checks, each a function with its dependencies injected (so tests can make any of
 * them fail), each answering OK / WARN / FAIL with one line of detail and, when not OK, one line of fix.
 * `runDoctor` runs them in order and returns the exit code (1 when anything FAILs). The assembly for a
 * config (which camera, which rig, which state dir) is in doctor-command.ts.
 */
import type { CalibrationBundle } from "../calibration/bundle.js";
import type { Camera } from "../camera/camera.js";
import type { MotionStatus } from "../rig/motion.js";
import { errorMessage, PiclawError } from "../util/errors.js";

export type CheckStatus = "ok" | "warn" | "fail";

export interface CheckOutcome {
  status: CheckStatus;
  /** One line: what was found (numbers included). */
  detail: string;
  /** One line: what to do about it (for WARN and FAIL). */
  fix?: string;
}

export interface CheckResult extends CheckOutcome {
  name: string;
}

/** One check. `run()` may throw: the runner reports a throw as FAIL with the error's message. */
export interface DoctorCheck {
  name: string;
  run(): Promise<CheckOutcome>;
}

const ok = (detail: string): CheckOutcome => ({ status: "ok", detail });
const warn = (detail: string, fix: string): CheckOutcome => ({ status: "warn", detail, fix });
const fail = (detail: string, fix: string): CheckOutcome => ({ status: "fail", detail, fix });

/** Run the checks in order, writing one line per result (and its fix); returns results and exit code. */
export async function runDoctor(
  checks: DoctorCheck[],
  write: (text: string) => void,
): Promise<{ results: CheckResult[]; exitCode: number }> {
  const results: CheckResult[] = [];
  for (const check of checks) {
    let outcome: CheckOutcome;
    try {
      outcome = await check.run();
    } catch (err) {
      const code = err instanceof PiclawError ? ` [${err.code}]` : "";
      outcome = fail(`${errorMessage(err)}${code}`, "see the message; `journalctl -u piclaw -e` has more");
    }
    const result = { name: check.name, ...outcome };
    results.push(result);
    write(formatResult(result));
  }
  const count = (s: CheckStatus) => results.filter((r) => r.status === s).length;
  write(`doctor: ${count("ok")} ok, ${count("warn")} warn, ${count("fail")} fail\n`);
  return { results, exitCode: count("fail") > 0 ? 1 : 0 };
}

export function formatResult(r: CheckResult): string {
  const head = `${r.status.toUpperCase().padEnd(4)} ${r.name}: ${r.detail}\n`;
  return r.fix && r.status !== "ok" ? `${head}     fix: ${r.fix}\n` : head;
}

/** File operations the state-dir check uses. */
export interface StateDirFs {
  mkdir(path: string): void;
  writeFile(path: string, data: string): void;
  remove(path: string): void;
}

/** The state directory exists (or can be made) and a file can be written and removed there. */
export function stateDirCheck(stateDir: string, fs: StateDirFs, user: string): DoctorCheck {
  return {
    name: "state dir",
    async run() {
      const probe = `${stateDir}/.doctor-${process.pid}`;
      try {
        fs.mkdir(stateDir);
        fs.writeFile(probe, "doctor\n");
        fs.remove(probe);
      } catch (err) {
        return fail(
          `${stateDir} is not writable for ${user}: ${errorMessage(err)}`,
          `sudo chown -R piclaw:piclaw ${stateDir} (or set stateDir in the config), and run doctor as the service user: sudo -u piclaw piclaw doctor`,
        );
      }
      return ok(`${stateDir} is writable`);
    },
  };
}

export interface DiskSpace {
  freeBytes: number;
  totalBytes: number;
}

/** Free space on the state directory's file system (FAIL under `minFreeMb`, WARN under `warnFreeMb`). */
export function diskSpaceCheck(
  stateDir: string,
  space: (path: string) => DiskSpace,
  limits: { minFreeMb: number; warnFreeMb: number },
): DoctorCheck {
  return {
    name: "disk space",
    async run() {
      const { freeBytes, totalBytes } = space(stateDir);
      const freeMb = Math.floor(freeBytes / 1_048_576);
      const detail = `${freeMb} MB free of ${Math.round(totalBytes / 1_048_576)} MB on the file system of ${stateDir}`;
      const fix =
        "free space: sudo journalctl --vacuum-size=100M; delete old session images under the state dir";
      if (freeMb < limits.minFreeMb) return fail(`${detail} (needs ${limits.minFreeMb} MB)`, fix);
      if (freeMb < limits.warnFreeMb) return warn(`${detail} (below ${limits.warnFreeMb} MB)`, fix);
      return ok(detail);
    },
  };
}

export interface CalibrationCheckDeps {
  /** Read the current bundle; throws CALIBRATION_BUNDLE_MISSING / CALIBRATION_BUNDLE_INVALID. */
  read: () => CalibrationBundle;
  now: () => number;
  /** WARN when older (0 = never). */
  maxAgeDays: number;
  /** What the bundle must be for (the rig profile and phone in use), asked when the check runs. */
  expected: () => { rigProfile: string; phoneModel: string };
  /** On the simulated rig a missing bundle is normal before the daemon's first start (it calibrates). */
  simulated: boolean;
}

/** A calibration bundle is present, for this rig and phone, validated, and not too old. */
export function calibrationCheck(deps: CalibrationCheckDeps): DoctorCheck {
  return {
    name: "calibration",
    async run() {
      let bundle: CalibrationBundle;
      try {
        bundle = deps.read();
      } catch (err) {
        const missing = err instanceof PiclawError && err.code === "CALIBRATION_BUNDLE_MISSING";
        if (missing && deps.simulated)
          return warn(
            "none yet (the daemon calibrates the simulated rig at its first start)",
            "start the daemon once, or run `piclaw calibrate`",
          );
        return fail(missing ? "none found" : errorMessage(err), "run `piclaw calibrate`");
      }
      const { rigProfile, phoneModel } = deps.expected();
      if (bundle.rigProfile !== rigProfile || bundle.phone.model !== phoneModel)
        return fail(
          `made for ${bundle.rigProfile} / ${bundle.phone.model}, but the rig is ${rigProfile} / ${phoneModel}`,
          "run `piclaw calibrate` for this rig and phone",
        );
      const ageMs = Math.max(0, deps.now() - Date.parse(bundle.createdAt));
      const v = bundle.validation;
      const numbers =
        `${formatAge(ageMs)} old; worst validation tap ${v.maxErrorMm.toFixed(2)} mm (limit ${v.thresholdMm} mm), ` +
        `camera fit ${bundle.camera.reprojection.rmsMm.toFixed(3)} mm rms, arm fit ${bundle.arm.residual.rmsMm.toFixed(3)} mm rms`;
      if (!v.passed)
        return fail(`validation failed: ${numbers}`, "run `piclaw calibrate` (the rig may have moved)");
      if (deps.maxAgeDays > 0 && ageMs > deps.maxAgeDays * 86_400_000)
        return warn(
          `stale: ${numbers} (older than ${deps.maxAgeDays} days)`,
          "run `piclaw calibrate --check` (and `piclaw calibrate` if it fails)",
        );
      return ok(numbers);
    },
  };
}

function formatAge(ms: number): string {
  const h = ms / 3_600_000;
  if (h < 1) return `${Math.round(ms / 60_000)} min`;
  if (h < 48) return `${h.toFixed(1)} h`;
  return `${Math.round(h / 24)} days`;
}

/**
 * The motion back-end answers and has a reference (homed / parked origin confirmed). `simulated`: the
 * board is the GRBL simulator on a pseudo-terminal in this process, so cable and power advice is wrong.
 */
export function motionCheck(
  probe: () => Promise<{ status: MotionStatus; via: string }>,
  simulated = false,
): DoctorCheck {
  return {
    name: "motion",
    async run() {
      let status: MotionStatus;
      let via: string;
      try {
        ({ status, via } = await probe());
      } catch (err) {
        // The GRBL driver's own refusals: the board answered, but motion is refused until the owner acts.
        const code = err instanceof PiclawError ? err.code : "";
        if (code === "MOTION_SETTINGS_MISMATCH")
          return fail(
            errorMessage(err),
            "stop the service, then `piclaw rig settings` shows the diff and `piclaw rig settings --apply` writes the profile's values",
          );
        if (code === "MOTION_ORIGIN_UNCONFIRMED")
          return fail(
            errorMessage(err),
            'move the carriage to park (motors off), then `piclaw rig reference --parked` (asks the daemon if it runs) or the dashboard\'s "Carriage at park" button',
          );
        return fail(
          `back-end unreachable: ${errorMessage(err)}`,
          simulated
            ? "the simulated board runs in this process behind a pseudo-terminal, which needs socat or python3: install one (sudo apt install socat), check rig.profile, and see the error above"
            : "check the controller's USB/serial cable and power, rig.serialPath / rig.baudRate (or the profile's serial.*) and rig.profile; stop the service first if it holds the port (a gpio profile needs pigpio on a Pi Zero–4)",
        );
      }
      const at = `(${status.position.xMm.toFixed(1)}, ${status.position.yMm.toFixed(1)}) mm`;
      if (status.state === "disconnected")
        return fail(
          `disconnected (${via})`,
          simulated
            ? "the simulated board's pseudo-terminal closed: run doctor again"
            : "check the cable and power",
        );
      if (status.state === "alarm" || status.state === "estop")
        return fail(
          `${status.state}${status.alarm ? ` ${status.alarm.code}: ${status.alarm.message}` : ""} (${via})`,
          "clear the cause, then reset the e-stop from the dashboard or restart the service",
        );
      if (!status.referenced)
        return fail(
          `reachable but not homed, at ${at} (${via})`,
          "park the arm at its origin and restart the service",
        );
      return ok(`${status.state}, homed, at ${at} via ${via}`);
    },
  };
}

/** The camera starts and delivers a whole frame of the configured size. */
export function cameraCheck(
  camera: Camera,
  /** `simulated`: the rpicam-vid stand-in (bin/sim), rendered by the simulator, not a Pi camera. */
  expected: { width: number; height: number; timeoutMs: number; what: string; simulated?: boolean },
  now: () => number,
): DoctorCheck {
  return {
    name: "camera",
    async run() {
      const started = now();
      try {
        await camera.start();
        const frame = await camera.grab({ timeoutMs: expected.timeoutMs });
        const seconds = ((now() - started) / 1000).toFixed(1);
        if (frame.width !== expected.width || frame.height !== expected.height)
          return warn(
            `${expected.what} streams ${frame.width}×${frame.height}, not the configured ${expected.width}×${expected.height}`,
            "set camera.width/height to a mode the sensor supports (rpicam-hello --list-cameras)",
          );
        return ok(
          `${expected.what} streaming ${frame.width}×${frame.height} (first frame after ${seconds} s)`,
        );
      } catch (err) {
        const code = err instanceof PiclawError ? err.code : "";
        const fix = expected.simulated
          ? code === "CAMERA_BINARY_MISSING"
            ? "the stand-in bin/sim/rpicam-vid runs the built code: run `npm run build`"
            : "the stand-in renders through the simulator in this process: see the piclaw.camera log lines; on a busy machine raise camera.startupTimeoutMs / camera.grabTimeoutMs"
          : code === "CAMERA_BINARY_MISSING"
            ? "install rpicam-apps (sudo apt install rpicam-apps)"
            : "check the ribbon cable and camera_auto_detect=1 in config.txt; stop the service if it holds the camera";
        return fail(`${expected.what}: ${errorMessage(err)}`, fix);
      } finally {
        await camera.stop();
      }
    },
  };
}

/** The vision models (OCR + icon detector) load. */
export function visionCheck(load: () => Promise<{ close(): Promise<void> }>, now: () => number): DoctorCheck {
  return {
    name: "vision models",
    async run() {
      const started = now();
      try {
        const stack = await load();
        await stack.close();
      } catch (err) {
        return fail(
          `do not load: ${errorMessage(err)}`,
          "check vision.ocr / vision.detector model paths; reinstall the app's node_modules (npm ci --omit=dev)",
        );
      }
      return ok(`OCR and detector loaded in ${((now() - started) / 1000).toFixed(1)} s`);
    },
  };
}

/** The LLM provider's API answers at `baseUrl` (any HTTP status counts as reachable; 5xx warns). */
export function providerCheck(
  baseUrl: string | null,
  fetchFn: (url: string, init: { signal: AbortSignal }) => Promise<{ status: number }>,
  timeoutMs: number,
  /** Why there is no API key (the agent is then off), or null/undefined when there is one. */
  missingKey?: string | null,
): DoctorCheck {
  return {
    name: "provider",
    async run() {
      if (missingKey)
        return warn(
          `the built-in agent is off: ${missingKey}`,
          "set the API key (environment variable or agent.providers.<name>.apiKeyFile); MCP works without it",
        );
      if (!baseUrl)
        return warn(
          "not configured",
          "set the agent's provider (base URL and API key) in the config's `agent` section",
        );
      const url = `${baseUrl.replace(/\/+$/, "")}/models`;
      try {
        const res = await fetchFn(url, { signal: AbortSignal.timeout(timeoutMs) });
        if (res.status >= 500)
          return warn(`${url} answers HTTP ${res.status}`, "the provider has trouble; try later");
        return ok(`${url} reachable (HTTP ${res.status})`);
      } catch (err) {
        const cause = (err as { cause?: unknown }).cause;
        return fail(
          `${url} unreachable: ${errorMessage(cause ?? err)}`,
          "check the network, DNS and the provider base URL",
        );
      }
    },
  };
}

/** The clock is NTP-synchronised (`query` returns timedatectl's NTPSynchronized value, or null). */
export function clockCheck(query: () => Promise<string | null>): DoctorCheck {
  return {
    name: "clock",
    async run() {
      const value = await query().catch(() => null);
      if (value === "yes") return ok("synchronised (NTP)");
      if (value === "no")
        return warn(
          "not synchronised: token expiry, job times and calibration age may be off",
          "check the network; sudo timedatectl set-ntp true",
        );
      return warn(
        "cannot tell (timedatectl not available)",
        "make sure an NTP client (systemd-timesyncd) runs",
      );
    },
  };
}

/** Whether the daemon answers on its own port (informative: doctor works with it stopped too). */
export function daemonCheck(
  healthUrl: string | null,
  fetchFn: (
    url: string,
    init: { signal: AbortSignal },
  ) => Promise<{ status: number; json(): Promise<unknown> }>,
): DoctorCheck {
  return {
    name: "daemon",
    async run() {
      if (!healthUrl) return ok("not checked (server.port is 0)");
      try {
        const res = await fetchFn(healthUrl, { signal: AbortSignal.timeout(3000) });
        const body = (await res.json()) as {
          status?: string;
          reason?: string;
          detail?: string;
          uptimeS?: number;
        };
        const up = `${healthUrl}, up ${body.uptimeS ?? "?"} s`;
        if (res.status === 200 && body.status === "ready") return ok(`running and ready (${up})`);
        // The daemon's own readiness: calibrating (tools wait), degraded (tools cannot act, reason says why).
        if (body.status === "calibrating" || body.status === "starting")
          return warn(
            `running, ${body.status}${body.detail ? `: ${body.detail}` : ""} (${up})`,
            "wait a minute and run doctor again",
          );
        if (body.status === "degraded")
          return fail(`running but degraded: ${body.reason ?? "?"} (${up})`, "journalctl -u piclaw -e");
        return warn(`${healthUrl} answers HTTP ${res.status}`, "journalctl -u piclaw -e");
      } catch {
        return warn(
          `not running (${healthUrl} does not answer)`,
          "sudo systemctl start piclaw; journalctl -u piclaw -e",
        );
      }
    },
  };
}
