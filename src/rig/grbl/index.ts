/** GRBL 1.1 / FluidNC motion back-end over serial. */
export { GrblBackend, type GrblBackendOptions, type GrblTimings } from "./backend.js";
export { CRITICAL_ALARMS, grblAlarm, grblAlarmMeaning, grblError, grblErrorMeaning } from "./codes.js";
export {
  findPortByUsbId,
  listSerialPorts,
  type OpenPort,
  openSerialPort,
  type PortListing,
  type SerialLink,
} from "./port.js";
export { BARRIER, type GcodeLine, programToGcode } from "./program.js";
export { type GrblLine, type GrblStatusReport, gnum, parseGrblLine, parseStatusReport } from "./protocol.js";
export { CharCountingStreamer, GRBL_RX_BUFFER } from "./streamer.js";
