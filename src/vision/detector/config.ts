import { isAbsolute, resolve } from "node:path";
import { z } from "zod";
import { projectRoot } from "../../util/paths.js";

/** PiClaw's own detector, committed with its recipe in models/icon-detector/ (MIT). */
export const BUILTIN_DETECTOR_MODEL = "models/icon-detector/piclaw-ui-detector.onnx";

/**
 * The `vision.detector:` config section: the UI-element detector. Defaults describe PiClaw's own
 * model; a YOLOv8/YOLO11 export (e.g. a single-class icon detector) works by changing the path, input
 * size and class list.
 */
export const detectorConfigSchema = z
  .strictObject({
    modelPath: z
      .string()
      .min(1)
      .default(BUILTIN_DETECTOR_MODEL)
      .describe(
        "ONNX model with one image input [1,3,H,W] (RGB, 0–1) and a YOLOv8-layout output [1, 4+classes, N] " +
          "(cx, cy, w, h in input pixels, then class scores). Relative paths resolve against the PiClaw install folder.",
      ),
    inputWidth: z.number().int().min(32).max(4096).default(288).describe("Model input width in pixels."),
    inputHeight: z.number().int().min(32).max(4096).default(640).describe("Model input height in pixels."),
    classes: z
      .array(z.string().min(1))
      .min(1)
      .default(["icon", "text", "control"])
      .describe("Class names in the model's output order (OmniParser's icon detector: `[icon]`)."),
    confThreshold: z
      .number()
      .min(0)
      .max(1)
      .default(0.3)
      .describe("Detections scoring below this are dropped."),
    iouThreshold: z
      .number()
      .min(0)
      .max(1)
      .default(0.5)
      .describe("Non-maximum suppression: a box overlapping a better one of its class by more is dropped."),
    maxDetections: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .default(300)
      .describe("At most this many objects per image."),
    threads: z
      .number()
      .int()
      .min(0)
      .max(16)
      .default(0)
      .describe("ONNX Runtime intra-op threads; 0 = one per available CPU core, at most 4."),
  })
  .describe("On-device UI-element detector (icons, text blocks, controls).");

/** Parsed detector options. */
export type DetectorOptions = z.output<typeof detectorConfigSchema>;

/** Absolute model path: relative paths are taken from the project (install) root, not the cwd. */
export function resolveModelPath(modelPath: string, root: string = projectRoot()): string {
  return isAbsolute(modelPath) ? modelPath : resolve(root, modelPath);
}
