import { existsSync } from "node:fs";
import { InferenceSession, Tensor } from "onnxruntime-node";
import type { RgbImage } from "../../shared/image.js";
import { errorMessage, PiclawError } from "../../util/errors.js";
import { inferenceThreads } from "../threads.js";
import type { DetectedObject, ObjectDetector } from "../types.js";
import { type DetectorOptions, detectorConfigSchema, resolveModelPath } from "./config.js";
import { decodeDetections } from "./decode.js";
import { toInputTensor } from "./preprocess.js";

/**
 * UI-element detector on ONNX Runtime. Works with PiClaw's own model (models/icon-detector/) and with
 * any YOLOv8/YOLO11-layout export (one image input [1,3,H,W] RGB 0–1; one output [1, 4+C, N]):
 * the image is letterboxed to the input size, the output decoded with class-wise NMS, and boxes
 * returned in 0–1 fractions of the given image.
 *
 * Lifecycle: `open()` loads the session (or use `OnnxDetector.create`), `close()` releases it.
 * `detect()` calls are serialised by ONNX Runtime; calling it before `open()` or after `close()`
 * throws `DETECTOR_CLOSED`.
 */
export class OnnxDetector implements ObjectDetector {
  readonly classes: readonly string[];
  private readonly options: DetectorOptions;
  private readonly modelPath: string;
  private session: InferenceSession | null = null;

  /** `options` may be partial: missing keys take the schema defaults. */
  constructor(options: Partial<DetectorOptions> = {}) {
    this.options = detectorConfigSchema.parse(options);
    this.classes = [...this.options.classes];
    this.modelPath = resolveModelPath(this.options.modelPath);
  }

  /** Construct and open in one step. */
  static async create(options: Partial<DetectorOptions> = {}): Promise<OnnxDetector> {
    const detector = new OnnxDetector(options);
    await detector.open();
    return detector;
  }

  /** Load the model. Throws `DETECTOR_MODEL_MISSING` / `DETECTOR_MODEL_INVALID` with the path. */
  async open(): Promise<void> {
    if (this.session) return;
    if (!existsSync(this.modelPath))
      throw new PiclawError("DETECTOR_MODEL_MISSING", `detector model not found: ${this.modelPath}`, {
        modelPath: this.modelPath,
      });
    let session: InferenceSession;
    try {
      session = await InferenceSession.create(this.modelPath, {
        intraOpNumThreads: inferenceThreads(this.options.threads),
        interOpNumThreads: 1,
        graphOptimizationLevel: "all",
        // The input size is fixed, so the arena buys little speed but keeps its peak resident.
        enableCpuMemArena: false,
        // Pool threads that spin after a run take a core from the OCR run that follows (as in ocr/index.ts).
        extra: { session: { intra_op: { allow_spinning: "0" } } },
      });
    } catch (err) {
      throw new PiclawError(
        "DETECTOR_MODEL_INVALID",
        `detector model could not be loaded: ${this.modelPath}: ${errorMessage(err)}`,
        { modelPath: this.modelPath },
        { cause: err },
      );
    }
    if (session.inputNames.length !== 1 || session.outputNames.length < 1) {
      await session.release();
      throw new PiclawError(
        "DETECTOR_MODEL_INVALID",
        "detector model must have one image input and an output",
        {
          modelPath: this.modelPath,
          inputs: [...session.inputNames],
          outputs: [...session.outputNames],
        },
      );
    }
    this.session = session;
  }

  async detect(image: RgbImage): Promise<DetectedObject[]> {
    const session = this.session;
    if (!session) throw new PiclawError("DETECTOR_CLOSED", "detector is not open (call open() first)");
    const { inputWidth, inputHeight } = this.options;
    const { data, box } = await toInputTensor(image, inputWidth, inputHeight);
    const inputName = session.inputNames[0] ?? "images";
    const outputName = session.outputNames[0] ?? "output0";
    let output: Tensor;
    try {
      const result = await session.run({
        [inputName]: new Tensor("float32", data, [1, 3, inputHeight, inputWidth]),
      });
      const out = result[outputName];
      if (!out) throw new Error(`no output named ${outputName}`);
      output = out;
    } catch (err) {
      throw new PiclawError(
        "DETECTOR_RUN_FAILED",
        `detector inference failed (is the input ${inputWidth}×${inputHeight}?): ${errorMessage(err)}`,
        { modelPath: this.modelPath, inputWidth, inputHeight },
        { cause: err },
      );
    }
    if (!(output.data instanceof Float32Array))
      throw new PiclawError("DETECTOR_OUTPUT_SHAPE", "detector output must be float32", {
        type: output.type,
      });
    const objects = decodeDetections(output.data, output.dims, box, this.options);
    output.dispose();
    return objects;
  }

  async close(): Promise<void> {
    const session = this.session;
    this.session = null;
    await session?.release();
  }
}
