/** Public surface of the on-device UI-element detector. */
export {
  BUILTIN_DETECTOR_MODEL,
  type DetectorOptions,
  detectorConfigSchema,
  resolveModelPath,
} from "./config.js";
export { type DecodeOptions, decodeDetections, nmsByClass, type PixelDetection } from "./decode.js";
export { OnnxDetector } from "./onnx-detector.js";
export { type Letterbox, letterboxGeometry, PAD_VALUE, toInputTensor } from "./preprocess.js";
