import { existsSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import qrcode from "qrcode-generator";
import type { PhoneBridge } from "../../bridge/bridge.js";
import { bundlePaths, type CalibrationBundle } from "../../calibration/bundle.js";
import { createCamera } from "../../camera/index.js";
import { listCameras } from "../../camera/list-cameras.js";
import type { Logger } from "../../log/logger.js";
import { MCP_PATH } from "../../mcp/endpoint.js";
import type { TokenStore } from "../../mcp/tokens.js";
import { resolveRigProfile } from "../../rig/profile.js";
import { applyHomography } from "../../shared/homography.js";
import { writeJsonAtomic } from "../../util/atomic-file.js";
import type { Clock } from "../../util/clock.js";
import { errorMessage, PiclawError } from "../../util/errors.js";
import { type ConfigOverlay, configOverlayPath, updateConfigOverlay } from "../config/overlay.js";
import type { PiclawConfig } from "../config/schema.js";
import { grblPositionPath } from "../hardware-rig-stack.js";
import {
  type BoardStepDeps,
  boardSettings,
  detectBoards,
  listProfiles,
  type SettingsRequest,
} from "./board-steps.js";

/** What the wizard needs from the running daemon. */
export interface SetupWizardDeps {
  config: PiclawConfig;
  stateDir: string;
  /** The config file's folder (profiles given as paths). */
  cwd: string;
  /** The daemon's environment (PATH finds `rpicam-hello`; the camera programs get it too). */
  env: NodeJS.ProcessEnv;
  tokens: TokenStore;
  bridge: () => PhoneBridge | null;
  /** The calibration the tools use now. */
  bundleInUse: () => CalibrationBundle | null;
  /** One frame of the daemon's own camera, on a real rig (on the simulated rig the wizard runs `rpicam-still`). */
  grabFrame: () => Promise<Buffer>;
  /** "Simulated rig", "Real rig (GRBL on /dev/ttyUSB0)". */
  rigLabel: () => string;
  /** Stop and start the daemon on the new config (after the reply went out). */
  requestRestart: (reason: string) => void;
  clock: Clock;
  log: Logger;
  /** Test seams for the board scan; the defaults are the real paths. */
  scan?: BoardStepDeps["scan"];
  timeouts?: { cameraListMs?: number; bannerWaitMs?: number };
}

/** `<stateDir>/setup.json`: whether the wizard was finished (the dashboard links to it until then). */
export function setupRecordPath(stateDir: string): string {
  return join(stateDir, "setup.json");
}

export function setupDone(stateDir: string): boolean {
  try {
    return typeof JSON.parse(readFileSync(setupRecordPath(stateDir), "utf8")).doneAt === "string";
  } catch {
    return false;
  }
}

/**
 * The steps of `/setup`, each a small call that either answers or throws a PiclawError whose
 * `details.fix` says what to do (`problem()` turns it into the page's error box). Every step can be run
 * again. Order on a fresh appliance: camera, board, profile and settings, camera view, switch to the
 * real rig (restart), pair the phone, calibrate, MCP token, done.
 */
export class SetupWizard {
  constructor(private readonly deps: SetupWizardDeps) {}

  /** Where the wizard stands, for the page to pick up (also after a restart). */
  state(host: string): Record<string, unknown> {
    const { config, stateDir } = this.deps;
    const bridge = this.deps.bridge();
    const bundle = this.deps.bundleInUse();
    return {
      rig: this.deps.rigLabel(),
      backend: config.rig.backend,
      profile: config.rig.profile,
      serialPath: config.rig.serialPath ?? null,
      overlay: existsSync(configOverlayPath(stateDir)) ? configOverlayPath(stateDir) : null,
      bridge: bridge
        ? {
            url: this.bridgeUrl(host),
            pairedDevices: bridge.status().pairedDevices.length,
            pageOpen: bridge.status().page.connected,
          }
        : null,
      calibration: bundle
        ? {
            createdAt: bundle.createdAt,
            passed: bundle.validation.passed,
            maxErrorMm: bundle.validation.maxErrorMm,
          }
        : null,
      tokens: this.deps.tokens.list().length,
      done: setupDone(stateDir),
      profiles: listProfiles(),
    };
  }

  async camera(): Promise<Record<string, unknown>> {
    // On a real rig rpicam-vid holds the camera, and libcamera lets one process at a time acquire it:
    // a frame from the running stream is the proof instead.
    if (this.deps.config.rig.backend === "hardware") {
      await this.picture();
      return { cameras: [], note: "the daemon's camera stream (rpicam-vid) delivers frames" };
    }
    const { cameras, output } = await listCameras({
      env: { ...process.env, ...this.deps.env },
      timeoutMs: this.deps.timeouts?.cameraListMs ?? 15_000,
    });
    if (cameras.length === 0)
      throw new PiclawError("SETUP_NO_CAMERA", "rpicam-hello sees no camera", {
        fix: "power off, check the ribbon cable (both ends, contacts the right way round), power on and retry",
        output,
      });
    return { cameras };
  }

  boards(): Promise<unknown> {
    return detectBoards(this.boardDeps());
  }

  settings(req: SettingsRequest): Promise<unknown> {
    return boardSettings(this.boardDeps(), req);
  }

  /**
   * One camera picture: the daemon's own camera on a real rig; on the simulated rig (a fresh appliance)
   * a one-off `rpicam-still` of the real camera, which nothing else holds then.
   */
  async picture(): Promise<Buffer> {
    if (this.deps.config.rig.backend === "hardware")
      return this.deps.grabFrame().catch((err: unknown) => {
        throw new PiclawError("SETUP_NO_PICTURE", `no frame from the camera: ${errorMessage(err)}`, {
          fix: "check the camera's ribbon cable and `journalctl -u piclaw` for rpicam-vid's errors, then restart PiClaw",
        });
      });
    const camera = createCamera(
      { ...this.deps.config.camera, mode: "still" },
      { clock: this.deps.clock, log: this.deps.log.child("camera"), env: this.deps.env },
    );
    try {
      await camera.start();
      return (await camera.grab()).jpeg;
    } catch (err) {
      throw new PiclawError("SETUP_NO_PICTURE", `no picture from the camera: ${errorMessage(err)}`, {
        fix: "run the camera step first; if it finds the camera, check camera.stillBinary and that nothing else uses the camera",
      });
    } finally {
      await camera.stop();
    }
  }

  /**
   * What to draw on the picture (camera pixels): the phone screen's outline and the last calibration's
   * validation taps (target, and where the phone said the stylus landed), from the bundle in use.
   */
  overlay(): Record<string, unknown> {
    const bundle = this.deps.config.rig.backend === "hardware" ? this.deps.bundleInUse() : null;
    if (!bundle)
      return {
        outline: null,
        taps: [],
        note: "the phone's outline shows here once the real rig is calibrated",
      };
    const h = bundle.camera.screenToCamera;
    const at = (p: { x: number; y: number }) => applyHomography(h, p.x, p.y);
    return {
      width: bundle.camera.width,
      height: bundle.camera.height,
      outline: [
        { x: 0, y: 0 },
        { x: 1, y: 0 },
        { x: 1, y: 1 },
        { x: 0, y: 1 },
      ].map(at),
      taps: bundle.validation.taps.map((t) => ({
        target: at(t.target),
        reported: t.reported ? at(t.reported) : null,
        errorMm: t.errorMm,
        passed: t.passed,
      })),
      note: null,
    };
  }

  /** A fresh pair code for the bridge page, its URL and a QR code of both. */
  pair(host: string): Record<string, unknown> {
    const bridge = this.deps.bridge();
    if (!bridge)
      throw new PiclawError("SETUP_BRIDGE_OFF", "the phone bridge is off (bridge.enabled: false)", {
        fix: "switch to the real rig first (that step turns the bridge on), then pair",
      });
    const { code, expiresAtMs } = bridge.pairCode();
    this.deps.log.addSecret(code);
    const url = this.bridgeUrl(host);
    const link = `${url}/#pair=${code}`;
    const qr = qrcode(0, "M");
    qr.addData(link);
    qr.make();
    return {
      url,
      code,
      link,
      expiresAt: new Date(expiresAtMs).toISOString(),
      qrSvg: qr.createSvgTag({ cellSize: 4, margin: 4, scalable: true }),
    };
  }

  /** A new MCP token and a ready-to-paste MCP host entry (Streamable HTTP: url + bearer header). */
  async token(host: string, label: string): Promise<Record<string, unknown>> {
    const { info, token } = await this.deps.tokens.create(label);
    this.deps.log.addSecret(token);
    const url = `http://${host}${MCP_PATH}`;
    const mcpConfig = {
      mcpServers: { piclaw: { type: "http", url, headers: { Authorization: `Bearer ${token}` } } },
    };
    return { id: info.id, label: info.label, token, url, mcpConfig };
  }

  /**
   * Make `backend` the rig (with this profile and board) by writing the config overlay, put the
   * calibration of the old rig aside (it maps another camera and arm), and restart the daemon once the
   * reply went out.
   */
  async switchRig(req: {
    backend: "sim" | "hardware";
    profile?: string;
    serialPath?: string;
  }): Promise<Record<string, unknown>> {
    const { stateDir, config } = this.deps;
    let patch: ConfigOverlay;
    if (req.backend === "hardware") {
      const profile = req.profile ?? config.rig.profile;
      const serialPath = req.serialPath ?? config.rig.serialPath;
      if (!serialPath)
        throw new PiclawError("SETUP_NO_BOARD", "no board chosen", {
          fix: "run the board step and pick the detected board",
        });
      await this.readyToMove(profile, serialPath);
      patch = {
        rig: { backend: "hardware", profile, ...(req.serialPath ? { serialPath: req.serialPath } : {}) },
        bridge: { enabled: true },
      };
    } else {
      patch = { rig: { backend: "sim" } };
    }
    const overlay = updateConfigOverlay(stateDir, patch);
    // Each rig keeps its own calibration: put this one's aside, and bring back the other's if it has one.
    const current = bundlePaths(stateDir).current;
    const kept = (backend: string) => join(stateDir, "calibration", `bundle.${backend}-rig.json`);
    let setAside: string | null = null;
    if (req.backend !== config.rig.backend) {
      if (existsSync(current)) {
        setAside = kept(config.rig.backend);
        renameSync(current, setAside);
      }
      if (existsSync(kept(req.backend))) renameSync(kept(req.backend), current);
    }
    this.deps.log.info("setup: rig switched; restarting", { overlay, setAside });
    return { overlay, overlayPath: configOverlayPath(stateDir), setAside, restarting: true };
  }

  /**
   * A real rig whose start would fail must not be switched to (under systemd it would restart in a
   * loop, with no dashboard to undo it): a GRBL board must match the profile, and a rig without
   * endstops needs its park confirmed (the position record).
   */
  private async readyToMove(profileName: string, serialPath: string): Promise<void> {
    const profile = resolveRigProfile(profileName, this.deps.cwd);
    if (profile.backend !== "grbl") return;
    const report = await boardSettings(this.boardDeps(), {
      profile: profileName,
      serialPath,
      apply: false,
      parked: false,
    });
    if (report.mismatches.length > 0)
      throw new PiclawError(
        "SETUP_SETTINGS_DIFFER",
        `the board's settings differ from profile ${profileName} (${report.mismatches.map((m) => m.key).join(", ")}): the real rig would refuse to move`,
        {
          fix: "press “Write the profile's settings to the board” in step 3 (a build option needs a reflash)",
        },
      );
    if (!profile.homing.endstops && !existsSync(grblPositionPath(this.deps.stateDir)))
      throw new PiclawError("SETUP_PARK_UNCONFIRMED", "nobody said where the carriage is", {
        fix: "move the carriage to the park corner, tick “The carriage sits at the park corner” in step 3 and press Check",
      });
  }

  /** Mark the wizard finished (the dashboard stops pointing at it). */
  finish(): Record<string, unknown> {
    const doneAt = new Date(this.deps.clock.now()).toISOString();
    writeJsonAtomic(setupRecordPath(this.deps.stateDir), { doneAt, rig: this.deps.rigLabel() });
    return { doneAt };
  }

  restart(reason: string): void {
    this.deps.requestRestart(reason);
  }

  /** The bridge page as the phone reaches it: the host the browser used here, on the bridge's port. */
  private bridgeUrl(host: string): string | null {
    const url = this.deps.bridge()?.status().url;
    if (!url) return null;
    const u = new URL(url);
    if (u.hostname === "0.0.0.0" || u.hostname === "[::]") u.hostname = host.replace(/:\d+$/, "");
    return u.origin;
  }

  private boardDeps(): BoardStepDeps {
    return {
      config: this.deps.config,
      cwd: this.deps.cwd,
      stateDir: this.deps.stateDir,
      log: this.deps.log.child("setup"),
      bannerWaitMs: this.deps.timeouts?.bannerWaitMs ?? 2500,
      now: () => new Date(this.deps.clock.now()),
      ...(this.deps.scan ? { scan: this.deps.scan } : {}),
    };
  }
}
