import type { JobView } from "../agent/ports.js";
import type { CalibrationBundle } from "../calibration/bundle.js";
import type { BedArea } from "../rig/controller.js";
import type { MotionStatus } from "../rig/motion.js";
import type { Clock } from "../util/clock.js";
import { errorMessage } from "../util/errors.js";
import type { FrameState } from "./frames.js";
import type {
  DashboardCalibrationRuns,
  DashboardReadiness,
  DashboardRig,
  DashboardSession,
  DashboardSources,
} from "./sources.js";

/**
 * The JSON the page polls (`GET /dashboard/status.json`). Every part is gathered independently: a
 * failing source (an unreadable jobs.md, a serial link that does not answer) shows as that part's
 * `error`, never as a failed page. Times are ms since epoch on the injected clock.
 */
export interface DashboardStatus {
  now: number;
  /** How often the page should poll (ms). */
  pollMs: number;
  /** Who the page is logged in as (`local` on a loopback bind without a token). */
  who: string;
  tokenRequired: boolean;
  /** Simulated or real, in words for the header, and whether `/setup` was finished (null: not known). */
  rig: DashboardRig | null;
  arm: ArmPart;
  owner: {
    holder: { label: string; priority: string; heldMs: number } | null;
    waiting: Array<{ label: string; priority: string; waitedMs: number }>;
  };
  /**
   * The bundle the phone tools use now (not merely the file on disk), so this part and the phone view
   * never disagree; `runs` is the calibration on request (null when the daemon offers none).
   */
  calibration: CalibrationPart;
  calibrationRuns: DashboardCalibrationRuns | null;
  /** The daemon's readiness (the banner), or null when the sources do not say. */
  readiness: DashboardReadiness | null;
  frame: { id: number; takenAt: number; listing: string } | null;
  frameError: string | null;
  refreshing: boolean;
  jobs: { items: JobPart[]; error: string | null };
  sessions: { items: SessionPart[]; error: string | null };
}

export type ArmPart =
  | (MotionStatus & { estopLatched: boolean; travelMm: { x: number; y: number }; allowedArea: BedArea })
  | { error: string; estopLatched: boolean };

export type CalibrationPart =
  | { present: false; error: string | null }
  | {
      present: true;
      createdAt: string;
      ageS: number;
      passed: boolean;
      /** The worst validation tap's error, the calibration's headline accuracy. */
      validationMaxErrorMm: number;
      thresholdMm: number;
      armResidualRmsMm: number;
      cameraReprojectionMaxMm: number;
      rigProfile: string;
      phoneModel: string;
    };

export type JobPart = Pick<
  JobView,
  "id" | "description" | "type" | "schedule" | "status" | "nextFireTime" | "lastFireTime" | "executionResult"
>;

export type SessionPart = DashboardSession & { imageUrls: string[] };

/** A source that does not answer within this long is shown as an error. */
const SOURCE_TIMEOUT_MS = 5000;

export async function gatherStatus(
  sources: DashboardSources,
  frames: FrameState,
  options: { clock: Clock; pollMs: number; recentSessions: number; who: string; tokenRequired: boolean },
): Promise<DashboardStatus> {
  const { clock } = options;
  const now = clock.now();
  // Read before the bundle: the daemon puts a new bundle in use before it says ready, so a page can see
  // "calibrating" next to the new bundle but never "ready" next to none (the other sources take a while).
  const readiness = sources.readiness?.() ?? null;
  const [motion, bundle, jobs, sessions] = await Promise.all([
    settle(() => sources.arm.status()),
    settle(() => sources.calibration()),
    settle(() => sources.jobs()),
    settle(() =>
      options.recentSessions > 0 ? sources.sessions(options.recentSessions) : Promise.resolve([]),
    ),
  ]);
  const { arm } = sources;
  const owner = sources.owner.status();
  return {
    now,
    pollMs: options.pollMs,
    who: options.who,
    tokenRequired: options.tokenRequired,
    rig: sources.rig?.() ?? null,
    arm:
      "value" in motion
        ? {
            ...motion.value,
            estopLatched: arm.estopLatched,
            travelMm: arm.travelMm,
            allowedArea: arm.allowedArea,
          }
        : { error: motion.error, estopLatched: arm.estopLatched },
    owner: {
      holder: owner.holder
        ? { label: owner.holder.label, priority: owner.holder.priority, heldMs: now - owner.holder.grantedAt }
        : null,
      waiting: owner.waiting,
    },
    calibration:
      "value" in bundle ? calibrationPart(bundle.value, now) : { present: false, error: bundle.error },
    calibrationRuns: sources.calibrator?.status() ?? null,
    readiness,
    frame: frames.frame
      ? { id: frames.frame.id, takenAt: frames.frame.takenAt, listing: frames.frame.listing }
      : null,
    frameError: frames.error,
    refreshing: frames.refreshing,
    jobs:
      "value" in jobs ? { items: jobs.value.map(jobPart), error: null } : { items: [], error: jobs.error },
    sessions:
      "value" in sessions
        ? { items: sessions.value.slice(0, options.recentSessions).map(sessionPart), error: null }
        : { items: [], error: sessions.error },
  };
}

function calibrationPart(bundle: CalibrationBundle | null, now: number): CalibrationPart {
  if (!bundle) return { present: false, error: null };
  return {
    present: true,
    createdAt: bundle.createdAt,
    ageS: Math.max(0, Math.round((now - Date.parse(bundle.createdAt)) / 1000)),
    passed: bundle.validation.passed,
    validationMaxErrorMm: bundle.validation.maxErrorMm,
    thresholdMm: bundle.validation.thresholdMm,
    armResidualRmsMm: bundle.arm.residual.rmsMm,
    cameraReprojectionMaxMm: bundle.camera.reprojection.maxMm,
    rigProfile: bundle.rigProfile,
    phoneModel: bundle.phone.model,
  };
}

function jobPart(job: JobView): JobPart {
  const { id, description, type, schedule, status, nextFireTime, lastFireTime, executionResult } = job;
  return { id, description, type, schedule, status, nextFireTime, lastFireTime, executionResult };
}

function sessionPart(session: DashboardSession): SessionPart {
  return { ...session, imageUrls: session.images.map((name) => sessionImageUrl(session.id, name)) };
}

export function sessionImageUrl(sessionId: string, name: string): string {
  return `/dashboard/session-image?${new URLSearchParams({ session: sessionId, name })}`;
}

/** Run a source with a time limit; its failure becomes a message. */
async function settle<T>(read: () => Promise<T>): Promise<{ value: T } | { error: string }> {
  let cancel = (): void => {};
  const timeout = new Promise<never>((_, reject) => {
    const handle = setTimeout(() => reject(new Error("no answer within 5 s")), SOURCE_TIMEOUT_MS);
    cancel = () => clearTimeout(handle);
  });
  try {
    return { value: await Promise.race([Promise.resolve().then(read), timeout]) };
  } catch (err) {
    return { error: errorMessage(err) };
  } finally {
    cancel();
  }
}
