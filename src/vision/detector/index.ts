/** Public surface of the on-device UI-element detector. */
export { OnnxDetector } from "./onnx-detector.js";
