/** GRBL 1.1 / FluidNC motion back-end over serial. */
export { GrblBackend } from "./backend.js";
