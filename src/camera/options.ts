import { z } from "zod";
import { num } from "../util/schema.js";

/**
 * The `camera` config section and the rpicam command lines it turns into. Exposure, gain, white balance
 * and focus are locked by default: auto exposure and AWB drift from frame to frame, which the change
 * detector above the camera would see as screen activity, and `rpicam-still --immediate` is only fast
 * with fixed settings. The defaults match the simulated rig (camera 190 mm above the bed, the phone's
 * glass ≈182 mm away); set a key to `null` to leave that control to the camera's automatic algorithm.
 * Value ranges are what rpicam-apps (and the simulated stand-ins) accept.
 */

export const cameraConfigSchema = z
  .strictObject({
    mode: z
      .enum(["vid", "still"])
      .default("vid")
      .describe(
        "`vid`: one long-lived `rpicam-vid` MJPEG stream, grabs take the next frame (tens of ms). `still`: one `rpicam-still --immediate` per grab (fallback; seconds per frame on a Pi).",
      ),
    vidBinary: z
      .string()
      .min(1)
      .default("rpicam-vid")
      .describe(
        "The rpicam-vid program: a name looked up on PATH, or a path (the simulator's `bin/sim/rpicam-vid`).",
      ),
    stillBinary: z
      .string()
      .min(1)
      .default("rpicam-still")
      .describe("The rpicam-still program: a name looked up on PATH, or a path."),
    width: z.number().int().min(64).max(4608).default(2304).describe("Frame width (px)."),
    height: z.number().int().min(64).max(2592).default(1296).describe("Frame height (px)."),
    framerate: num(0.1, 120)
      .default(30)
      .describe(
        "Frames per second of the stream (`vid`). Higher means fresher frames after a tap at more CPU cost; a Camera Module 3 reaches ~56 at 2304×1296.",
      ),
    quality: z.number().int().min(1).max(100).default(80).describe("JPEG quality (1–100)."),
    shutterUs: num(1, 112_000_000)
      .nullable()
      .default(10_000)
      .describe("Locked exposure time (µs); `null` = auto exposure."),
    gain: num(1, 16).nullable().default(2).describe("Locked analogue gain; `null` = auto."),
    awbGains: z
      .tuple([num(0.01, 32), num(0.01, 32)])
      .nullable()
      .default([1.9, 1.6])
      .describe("Locked white-balance gains [red, blue]; `null` = auto white balance."),
    lensPosition: num(0, 32)
      .nullable()
      .default(5.5)
      .describe(
        "Locked focus in dioptres (1000 / distance to the phone's glass in mm: 5.5 ≈ 182 mm); `null` = autofocus.",
      ),
    pipelineFrames: z
      .number()
      .int()
      .min(0)
      .max(10)
      .default(1)
      .describe(
        "Frames that may already be in flight when a grab is asked for (`vid`): the grab skips that many frames completed after the request, so the one it returns was exposed after it. Raise it if frames taken right after a tap still show the screen from before it.",
      ),
    grabTimeoutMs: z
      .number()
      .int()
      .min(1)
      .max(600_000)
      .default(5000)
      .describe("How long a grab waits for a fresh frame before failing with CAMERA_TIMEOUT (ms)."),
    startupTimeoutMs: z
      .number()
      .int()
      .min(100)
      .max(600_000)
      .default(10_000)
      .describe(
        "A started rpicam-vid that gives no frame in this time is restarted (ms); one that used CPU meanwhile (≥ 1%) gets another period, up to 10.",
      ),
    stallTimeoutMs: z
      .number()
      .int()
      .min(100)
      .max(600_000)
      .default(3000)
      .describe(
        "A running rpicam-vid whose frames stop for this long is restarted (ms); one that used CPU meanwhile (≥ 1%) gets another period, up to 10.",
      ),
    restartMinMs: z
      .number()
      .int()
      .min(0)
      .max(60_000)
      .default(200)
      .describe(
        "First delay before restarting rpicam-vid after it exits or stalls (ms); doubles per failure.",
      ),
    restartMaxMs: z
      .number()
      .int()
      .min(0)
      .max(600_000)
      .default(5000)
      .describe("Cap of the restart delay (ms). A frame resets the delay to `restartMinMs`."),
    stillTimeoutMs: z
      .number()
      .int()
      .min(100)
      .max(600_000)
      .default(15_000)
      .describe("An rpicam-still run that takes longer than this is killed (ms)."),
    stopGraceMs: z
      .number()
      .int()
      .min(0)
      .max(60_000)
      .default(2000)
      .describe("How long a capture process gets to exit after SIGTERM before SIGKILL (ms)."),
  })
  .describe("The overhead camera (libcamera's rpicam apps; the simulator's stand-ins behave alike).");

export type CameraConfig = z.infer<typeof cameraConfigSchema>;

/** The settings flags both rpicam apps share (size, quality and locked controls). */
function settingsArgs(c: CameraConfig): string[] {
  const args = ["--width", String(c.width), "--height", String(c.height), "--quality", String(c.quality)];
  if (c.shutterUs !== null) args.push("--shutter", String(c.shutterUs));
  if (c.gain !== null) args.push("--gain", String(c.gain));
  if (c.awbGains !== null) args.push("--awbgains", `${c.awbGains[0]},${c.awbGains[1]}`);
  // rpicam-apps: a lens position switches autofocus to manual.
  if (c.lensPosition !== null) args.push("--lens-position", String(c.lensPosition));
  return args;
}

/** argv of the long-lived MJPEG stream: frames back to back on stdout until stopped. */
export function rpicamVidArgs(c: CameraConfig): string[] {
  return [
    "--codec",
    "mjpeg",
    "-o",
    "-",
    "-t",
    "0",
    "--nopreview",
    // Flush stdout after every frame: a frame reaches the driver as soon as it is encoded.
    "--flush",
    "--framerate",
    String(c.framerate),
    ...settingsArgs(c),
  ];
}

/** argv of one immediate still to stdout. */
export function rpicamStillArgs(c: CameraConfig): string[] {
  return ["--immediate", "-n", "-o", "-", ...settingsArgs(c)];
}
