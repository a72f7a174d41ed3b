import type { Logger } from "../../log/logger.js";
import type { RigProfile } from "../profile.js";
import type { OpenPort, PortListing } from "./port.js";
import type { PositionStore } from "./position-record.js";
import type { GrblTimings } from "./timings.js";

/** Constructor options of `GrblBackend`. */
export interface GrblBackendOptions {
  profile: RigProfile;
  log: Logger;
  /** Device path; overrides `profile.serial.path`. Without either the port is found by USB id. */
  path?: string;
  /** Opens the port (default: `serialport`); lists ports for USB id detection (`SerialPort.list()`). */
  openPort?: OpenPort;
  listPorts?: () => Promise<PortListing[]>;
  timings?: Partial<GrblTimings>;
  /** Where the carriage was last seen and whether the last stop parked cleanly (position-record.ts).
   * With it, a parked-origin rig references on start only when the record vouches for the carriage;
   * without it, `reference()` declares the park spot unconditionally (tests, a simulated fresh world).
   */
  positions?: PositionStore;
}
