/**
 * The motion layer's contract. Every back-end (a GRBL/FluidNC board over serial, direct GPIO with
 * pigpio DMA waves, and — through those same protocols — the simulated gantry) executes the same
 * small programs. Coordinates are bed millimetres: x to the right, y away from the user (seen from
 * above, the user at the front edge), measured from the machine origin that homing (or the
 * parked-origin procedure) establishes. The simulated world places the phone in the same frame.
 * Back-ends never validate targets against soft limits themselves: the MotionController does that
 * before anything is sent, so an invalid target moves nothing on any back-end.
 */

export interface BedPoint {
  xMm: number;
  yMm: number;
}

/** One step of a motion program. Programs are executed in order; `run()` resolves after the last. */
export type MotionStep =
  /** Rapid move with the stylus up (G0). */
  | { kind: "travel"; to: BedPoint }
  /** Straight move at a feed rate, normally with the stylus down (a swipe; G1 … F…). */
  | { kind: "feed"; to: BedPoint; feedMmPerMin: number }
  /**
   * Stylus down (strike at full power for the profile's strike time, then hold power) or up. A back-end
   * must not energise before all earlier motion has finished (GRBL: M3 is a barrier).
   */
  | { kind: "stylus"; down: boolean }
  /** Wait in place (G4 P…): holds contact time, gaps between taps, long presses. */
  | { kind: "dwell"; ms: number };

export type MotionState = "disconnected" | "idle" | "moving" | "hold" | "alarm" | "estop";

export interface MotionStatus {
  state: MotionState;
  /** Last known machine position (bed mm). */
  position: BedPoint;
  stylusDown: boolean;
  /** True after homing or after the parked origin was confirmed since the last (re)connect. */
  referenced: boolean;
  /**
   * Set by MotionController. false: the arm is not referenced, so where it is is unknown; `position` is
   * then the last position known while it was (a back-end's own report means nothing after an e-stop,
   * alarm or reset: GRBL's, for one, drops its volatile G92 origin and reads about 0/0).
   */
  positionKnown?: boolean;
  /** Set while state is "alarm": the controller's code and what it means. */
  alarm?: { code: string; message: string };
}

/**
 * A motion back-end. `start()` connects and handshakes; `stop()` lifts the stylus, disables drivers and
 * releases every handle. All methods reject with a PiclawError (codes `MOTION_*`) on failure.
 */
export interface MotionBackend {
  readonly name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * Establish the machine origin: home against endstops where the profile has them, else declare the
   * current (parked) position to be the profile's park spot — the documented parked-origin procedure.
   */
  reference(): Promise<void>;
  /**
   * The operator vouches that the carriage is at the park spot: reference there even where `reference()`
   * refuses because nothing else can vouch for it (GRBL after a crash, an e-stop mid-move, an unasked
   * board reset: MOTION_ORIGIN_UNCONFIRMED). Absent: `reference()` never doubts (homing, GPIO).
   */
  confirmParked?(): Promise<void>;
  /** Execute the steps in order; resolves once the machine has finished all of them (a barrier). */
  run(program: readonly MotionStep[], signal?: AbortSignal): Promise<void>;
  status(): Promise<MotionStatus>;
  /** Pause motion in a controlled way (GRBL `!`); `resume()` continues (GRBL `~`). */
  feedHold(): Promise<void>;
  resume(): Promise<void>;
  /**
   * Emergency halt: stop motion as fast as the hardware allows (within one step period on GPIO), lift
   * the stylus, discard queued motion. Afterwards the back-end needs `reference()` before moving again.
   */
  halt(reason: string): Promise<void>;
  /** Turn stepper drivers off (idle power saving); the next move turns them on again. */
  disableDrivers(): Promise<void>;
}
