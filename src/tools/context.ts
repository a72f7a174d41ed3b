import type { Logger } from "../log/logger.js";
import type { MotionStep } from "../rig/motion.js";
import { errorMessage, PiclawError } from "../util/errors.js";
import type { PhoneIo } from "./phone-io.js";
import { gestureResult, type Hints } from "./results.js";
import type { GestureBuilder, RigSession } from "./rig-session.js";
import type { ToolContext, ToolResult } from "./types.js";

/** Lights up a dark screen before unlocking. */
export interface WakeStep {
  /** What it does, for the tool's report (e.g. "pressed the side button"). */
  readonly description: string;
  wake(): Promise<void>;
}

/** What every phone tool closes over. */
export interface PhoneToolDeps {
  session: RigSession;
  phoneIo: PhoneIo;
  /** The passcode (a secret; null when none is configured), read when unlock_phone runs. */
  passcode: () => string | null;
  /**
   * How unlock_phone wakes a dark screen. null: a stylus tap in the middle of the screen (tap to
   * wake), which is what a real rig does. The simulated rig presses the simulated side button instead.
   */
  wake: WakeStep | null;
  sleep: (ms: number) => Promise<void>;
  /** Pause after waking or between steps that need the phone to catch up (ms). */
  settleMs: number;
  /**
   * How the model gets clipboard text into a field, said after send_to_clipboard (default: long-press
   * the field, tap Paste). A bridge whose page needs a tap on its Copy button first says so here.
   */
  pasteHint?: string;
}

/** One gesture program, planned in screen fractions; `lines` describe it for the result. */
export interface GesturePlan {
  lines: string[];
  program: MotionStep[];
  hints?: Hints;
}

/**
 * The common path of a one-program gesture: plan it through the calibration, check it (a program the
 * soft limits refuse moves nothing and fails with the reason), run it with before/after frames, report.
 */
export async function runGesture(
  tool: string,
  deps: PhoneToolDeps,
  ctx: ToolContext,
  plan: (b: GestureBuilder) => GesturePlan,
): Promise<ToolResult> {
  const planned = plan(await deps.session.builder(ctx.signal));
  deps.session.check(planned.program);
  ctx.progress(`${tool}: moving`);
  const acted = await deps.session.act(ctx.signal, (arm) => arm.run(planned.program));
  if (acted.error !== undefined) {
    return gestureResult([`${tool} failed: ${describeFailure(acted.error, ctx.log)}`], acted, {
      isError: true,
    });
  }
  return gestureResult(planned.lines, acted, planned.hints ? { hints: planned.hints } : {});
}

/** A failure as the model may read it: code and message of a PiclawError, nothing internal otherwise. */
export function describeFailure(err: unknown, log: Logger): string {
  if (err instanceof PiclawError) return `[${err.code}] ${err.message}`;
  log.error("gesture failed unexpectedly", { err: errorMessage(err) });
  return "an internal error (see the PiClaw log)";
}
