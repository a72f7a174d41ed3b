import type { PhoneTruth } from "../../sim/phone/phone.js";
import { findRow, type Row } from "./rows.js";
import type { Decision, Look, Policy } from "./scripted-provider.js";

/**
 * Building blocks of the scripted baseline: what a careful person does who reads only the listing.
 * Each step returns a decision, or null when it has nothing to do on this screen.
 */
export type Step = (look: Look) => Decision | null;

const centreY = (r: Row) => (r.box[1] + r.box[3]) / 2;

/** Look first; unlock when a lock screen or passcode keypad is shown. */
export const lookAndUnlock =
  (lockWords: readonly string[]): Step =>
  ({ rows, turn }) => {
    if (turn === 1 || rows.length === 0) return { note: "look at the phone first", tool: "peek" };
    if (lockWords.some((w) => findRow(rows, w))) return { note: "the phone is locked", tool: "unlock_phone" };
    return null;
  };

/** From anywhere to inside `app`: tap its name on the home screen, else go home first. */
export const openApp =
  (name: string, isOpen: (rows: Row[]) => boolean): Step =>
  ({ rows, lastResult }) => {
    if (isOpen(rows)) return null;
    const icon = findRow(rows, name);
    if (icon && icon.box[1] > 0.08) return { note: `open ${name}`, tool: "tap", args: { bbox: icon.box } };
    if (/home_screen/.test(lastResult) && !icon)
      return { note: `${name} is not on this page; try the next one`, tool: "swipe", args: swipeLeft };
    return { note: `go home to find ${name}`, tool: "home_screen" };
  };

const swipeLeft = { bbox: [0.2, 0.45, 0.8, 0.55], direction: "left", size: "l", speed: "medium" };

/** The control on the same row as a text label (a switch at the row's right end). */
export function controlBeside(rows: readonly Row[], label: Row): Row | undefined {
  const h = label.box[3] - label.box[1];
  return rows
    .filter(
      (r) => r !== label && r.kind !== "text" && r.box[0] > 0.6 && Math.abs(centreY(r) - centreY(label)) < h,
    )
    .sort((a, b) => b.box[0] - a.box[0])[0];
}

export const end = (status: string, recap: string, note = "closing the session"): Decision => ({
  note,
  tool: "end_session",
  args: { status, recap },
});

/** Try steps in order; the first that decides wins; `otherwise` when none does. */
export function policy(steps: readonly Step[], otherwise: (look: Look) => Decision): Policy {
  return (look) => {
    for (const step of steps) {
      const d = step(look);
      if (d) return d;
    }
    return otherwise(look);
  };
}

/** Give up after `max` turns of one task with STUCK→FAIL, so a lost baseline ends. */
export function bounded(p: Policy, max: number): Policy {
  return (look) => (look.turn > max ? end("FAIL", "the scripted baseline got lost") : p(look));
}

/** What a task's check sees after the session: the simulated phone's truth and the outcome. */
export interface CheckContext {
  truth: PhoneTruth;
  /** The last session's closing status and recap. */
  status: string;
  recap: string;
  /** Every session's closing status in order (two for a resumed task: the WAIT, then the follow-up). */
  statuses: string[];
}

/** A message that arrives `afterSeconds` after the task's first session starts. */
export interface LaterReply {
  from: string;
  text: string;
  afterSeconds: number;
}

/** One task of `piclaw eval`: words for the agent, the phone it starts with, and how success is judged. */
export interface EvalTask {
  id: string;
  /** What the user asks, exactly as the agent receives it. */
  prompt: string;
  /** `sim.phone` settings for this task (locale, notifications). */
  phone?: Record<string, unknown>;
  /**
   * A WAIT-and-resume task: this reply arrives later; when the first session ends WAIT, the harness
   * waits for the reply, fires the follow-up job the WAIT left (as `piclaw jobs fire` does) and the
   * task goes on in the session that job wakes.
   */
  resume?: LaterReply;
  /** null = success, else why not (read from the simulator's truth, never from the agent's words alone). */
  check(ctx: CheckContext): string | null;
  /** The scripted listing-only policy (a fresh one per run: policies keep state). */
  baseline(): Policy;
}

export const LOCK_EN = ["Swipe up to open", "Enter Passcode"];
export const MAX_TURNS = 14;
export const inMessageList = (rows: Row[]) => !!findRow(rows, "Messages") && !findRow(rows, "Clock");

/**
 * A Messages task's policy: unlock, open Messages, open Mom's thread, then `inThread` decides there.
 * `isThread` tells Mom's thread from the other screens, so Messages is not reopened from inside it.
 */
export function momThreadPolicy(
  inThread: Step,
  isThread: (rows: Row[]) => boolean,
  maxTurns: number,
): Policy {
  const thread: Step = ({ rows }) => {
    const mom = findRow(rows, "Mom");
    return inMessageList(rows) && mom
      ? { note: "open Mom's thread", tool: "tap", args: { bbox: mom.box } }
      : null;
  };
  return bounded(
    policy(
      [lookAndUnlock(LOCK_EN), inThread, thread, openApp("Messages", (r) => inMessageList(r) || isThread(r))],
      () => end("FAIL", "lost"),
    ),
    maxTurns,
  );
}
