import { execFile } from "node:child_process";
import { PiclawError } from "../util/errors.js";

/**
 * `rpicam-hello --list-cameras`: which Pi cameras libcamera sees. The output format is rpicam-apps'
 * `Options::Parse` (core/options.cpp, the `list_cameras` branch), on stdout:
 *
 * ```
 * Available cameras
 * -----------------
 * 0 : imx708 [4608x2592 10-bit RGGB] (/base/soc/i2c0mux/i2c@1/imx708@1a)
 *     Modes: 'SRGGB10_CSI2P' : 1536x864 [120.13 fps - (768, 432)/3072x1728 crop]
 *                              2304x1296 [56.03 fps - (0, 0)/4608x2592 crop]
 * ```
 *
 * or `No cameras available!` when there is none (exit status 0 either way).
 */

/** One camera of the list. */
export interface ListedCamera {
  index: number;
  /** The sensor, e.g. `imx708` (Camera Module 3) or `imx219` (v2). */
  model: string;
  /** The pixel array's active area, when printed. */
  pixels: { width: number; height: number } | null;
  /** libcamera's id (the device-tree path of the sensor). */
  id: string;
  /** Every mode size listed, e.g. `2304x1296`, with its best frame rate. */
  modes: Array<{ format: string; width: number; height: number; fps: number | null }>;
}

const CAMERA_LINE = /^(\d+)\s*:\s*(\S+)\s*\[([^\]]*)\]\s*\(([^)]*)\)\s*$/;
const MODE_SIZE = /(\d+)x(\d+)\s*\[([\d.]+|nan)\s*fps/g;

/** Parse the list; an empty array for `No cameras available!` (or any output without a camera line). */
export function parseCameraList(text: string): ListedCamera[] {
  const cameras: ListedCamera[] = [];
  let format = "";
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const cam = CAMERA_LINE.exec(line);
    if (cam) {
      const size = /(\d+)x(\d+)/.exec(cam[3] ?? "");
      cameras.push({
        index: Number(cam[1]),
        model: cam[2] ?? "",
        pixels: size ? { width: Number(size[1]), height: Number(size[2]) } : null,
        id: cam[4] ?? "",
        modes: [],
      });
      format = "";
      continue;
    }
    const current = cameras.at(-1);
    if (!current) continue;
    const fmt = /^(?:Modes:\s*)?'([^']+)'\s*:/.exec(line);
    if (fmt) format = fmt[1] ?? "";
    for (const m of line.matchAll(MODE_SIZE)) {
      const fps = m[3] === "nan" ? null : Number(m[3]);
      current.modes.push({ format, width: Number(m[1]), height: Number(m[2]), fps });
    }
  }
  return cameras;
}

export interface ListCamerasOptions {
  /** The program (default `rpicam-hello`, found on `env.PATH`). */
  binary?: string;
  env: NodeJS.ProcessEnv;
  /** Kill it after this long (libcamera can hang on a half-seated ribbon cable). */
  timeoutMs: number;
}

/**
 * Run `rpicam-hello --list-cameras` and parse it. Throws CAMERA_LIST_FAILED (with `fix`) when the
 * program is missing, fails or does not finish within `timeoutMs`; an empty list is not an error here.
 */
export function listCameras(
  options: ListCamerasOptions,
): Promise<{ cameras: ListedCamera[]; output: string }> {
  const binary = options.binary ?? "rpicam-hello";
  return new Promise((resolve, reject) => {
    execFile(
      binary,
      ["--list-cameras"],
      { env: options.env, timeout: options.timeoutMs, killSignal: "SIGKILL", maxBuffer: 1 << 20 },
      (err, stdout, stderr) => {
        const output = `${stdout}${stderr ? `\n${stderr}` : ""}`.trim();
        if (!err) return resolve({ cameras: parseCameraList(stdout), output });
        const e = err as NodeJS.ErrnoException & { killed?: boolean };
        let message: string;
        let fix: string;
        if (e.code === "ENOENT") {
          message = `${binary} is not installed`;
          fix = "install rpicam-apps (Raspberry Pi OS: sudo apt install rpicam-apps-lite)";
        } else if (e.killed) {
          message = `${binary} --list-cameras did not finish within ${options.timeoutMs} ms`;
          fix = "power off, reseat the camera's ribbon cable (contacts facing the right way) and try again";
        } else {
          message = `${binary} --list-cameras failed: ${stderr.trim().split("\n").at(-1) ?? e.message}`;
          fix = "check the camera cable and that the service user is in the video group";
        }
        reject(new PiclawError("CAMERA_LIST_FAILED", message, { binary, fix, output }));
      },
    );
  });
}
