import type { JobView } from "../agent/ports.js";
import type { CalibrationBundle } from "../calibration/bundle.js";
import type { BedArea } from "../rig/controller.js";
import type { MotionStatus } from "../rig/motion.js";
import type { AcquireRequest, OwnerStatus, PhoneLease } from "../rig/owner.js";

/**
 * Everything the dashboard shows or does goes through this one interface, so the page can be served
 * by the daemon (real rig, owner, vision) and by tests (fakes) alike. The dashboard never moves the
 * arm without a lease from `owner`, and never takes the arm to look at the phone.
 */
export interface DashboardSources {
  /** The arm's sharing (the PhoneOwner): park and e-stop reset wait for a lease like any caller. */
  owner: DashboardOwner;
  arm: DashboardArm;
  /**
   * The current calibration bundle, or null when there is none. May throw (an unreadable bundle):
   * the dashboard shows the message.
   */
  calibration(): Promise<CalibrationBundle | null>;
  /**
   * Look at the phone through the camera: the rectified screen with the listing boxes drawn (JPEG)
   * and the listing rows. Must not take the arm. Throws (e.g. NOT_CALIBRATED) when it cannot.
   */
  look(signal: AbortSignal): Promise<{ jpeg: Buffer; listing: string }>;
  /** Jobs from jobs.md (the JobStore); an empty list until the daemon connects one. */
  jobs(): Promise<JobView[]>;
  /** Sessions, newest first, at most `limit`; an empty list until the daemon connects a store. */
  sessions(limit: number): Promise<DashboardSession[]>;
  /**
   * One image of a session, or null when there is none. `sessionId` and `name` come straight from the
   * request: return only names listed in that session's `images` (never treat them as paths).
   */
  sessionImage(sessionId: string, name: string): Promise<{ contentType: string; body: Buffer } | null>;
  /** What the appliance can do now (the daemon's readiness); absent: the page shows no banner. */
  readiness?(): DashboardReadiness;
  /** Calibration on request (the Calibrate button); absent: the button answers that it cannot. */
  calibrator?: DashboardCalibrator;
  /**
   * The rig in plain words (`Simulated rig`, `Real rig (GRBL on /dev/ttyUSB0)`) and whether the setup
   * wizard was finished; absent: the header says neither.
   */
  rig?(): DashboardRig;
}

export interface DashboardRig {
  label: string;
  simulated: boolean;
  setupDone: boolean;
}

/** The daemon's readiness as the banner shows it (see src/app/readiness.ts). */
export interface DashboardReadiness {
  /** starting | calibrating | ready | degraded | stopping */
  state: string;
  /** Why it is degraded (and what to do), or what it waits for. */
  reason?: string;
  /** The latest progress line (a calibration step). */
  detail?: string;
  /** Clock time (ms) the state was entered. */
  since: number;
}

/** Calibration inside the daemon, as the dashboard starts and follows it. */
export interface DashboardCalibrator {
  /**
   * Start a calibration in the background (it waits for the arm like every caller); progress shows in
   * `readiness()`, the verdict in `status().last`. Contract: throws a PiclawError (CALIBRATION_RUNNING)
   * at once when one is under way; never rejects later (a failed run is reported through `status()`).
   */
  start(by: string): void;
  status(): DashboardCalibrationRuns;
}

export interface DashboardCalibrationRuns {
  /** Who runs a calibration now, or null. */
  running: string | null;
  /** The last finished run: who asked, whether it passed, its last line (PASS/FAIL … or the error). */
  last: { by: string; check: boolean; passed: boolean; summary: string; finishedAt: number } | null;
}

/** The part of PhoneOwner the dashboard uses. */
export interface DashboardOwner {
  acquire(request: AcquireRequest): Promise<PhoneLease>;
  status(): OwnerStatus;
}

/** The arm as the dashboard sees and drives it (the MotionController has all of it but `bed`). */
export interface DashboardArm {
  status(): Promise<MotionStatus>;
  readonly estopLatched: boolean;
  /** The allowed area (the calibrated screen plus a margin, or the whole travel). */
  readonly allowedArea: BedArea;
  /** The bed's travel in mm, to draw the carriage in. */
  readonly travelMm: { x: number; y: number };
  /** Travel to the park spot (called only under a lease). */
  park(): Promise<void>;
  /** Latch an emergency stop: halts at once, without waiting for the arm's holder. */
  estop(reason: string): Promise<void>;
  /** Clear a latched e-stop (then `reference()`, called under a lease). */
  resetEstop(): void;
  reference(): Promise<void>;
  /**
   * The operator checked that the carriage is at the park spot: clear a latched e-stop and reference
   * there even when the driver cannot vouch for it (called only under a lease).
   */
  confirmParked(): Promise<void>;
}

/** One agent session as the dashboard lists it (from `<stateDir>/sessions/<id>/summary.json`). */
export interface DashboardSession {
  id: string;
  /** ISO 8601, or null when unknown. */
  startedAt: string | null;
  endedAt: string | null;
  /** A SessionStatus (DONE, FAIL, WAIT, IDLE, STUCK, ABORTED) or `running`. */
  status: string;
  recap: string;
  /** The model's per-turn notes, oldest first. */
  notes: string[];
  /** Image names readable through `sessionImage` (oldest first). */
  images: string[];
}

/** Sources for jobs and sessions before the real stores are connected. */
export const emptyJobsAndSessions: Pick<DashboardSources, "jobs" | "sessions" | "sessionImage"> = {
  jobs: async () => [],
  sessions: async () => [],
  sessionImage: async () => null,
};
