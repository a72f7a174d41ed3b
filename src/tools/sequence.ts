import type { MotionStep } from "../rig/motion.js";
import { errorMessage, PiclawError } from "../util/errors.js";
import { type SequenceStep, sequenceSteps, toolArgs } from "./args.js";
import { describeFailure, type PhoneToolDeps } from "./context.js";
import { gestureResult } from "./results.js";
import type { GestureBuilder } from "./rig-session.js";
import { bboxCentre, fmtPoint, swipePath } from "./screen-geometry.js";
import { PASTE_HINT } from "./send-to-clipboard.js";
import { type AnyPhoneTool, definePhoneTool, errorResult } from "./types.js";

/** One planned step: a motion program or a clipboard text, with how to describe it. */
type PlannedStep = { label: string; program: MotionStep[] } | { label: string; clipboard: string };

function plan(step: SequenceStep, b: GestureBuilder): PlannedStep {
  switch (step.tool_name) {
    case "tap": {
      const at = bboxCentre(step.arg.bbox);
      return { label: `tap at ${fmtPoint(at)}`, program: b.tap(at) };
    }
    case "double_tap": {
      const at = bboxCentre(step.arg.bbox);
      return { label: `double tap at ${fmtPoint(at)}`, program: b.doubleTap(at) };
    }
    case "long_press": {
      const at = bboxCentre(step.arg.bbox);
      return { label: `long press at ${fmtPoint(at)}`, program: b.longPress(at) };
    }
    case "swipe": {
      const { direction, size, speed } = step.arg;
      const path = swipePath(bboxCentre(step.arg.bbox), direction, b.swipeLengthMm(size), b.glassMm);
      return {
        label: `swipe ${direction} from ${fmtPoint(path.from)} to ${fmtPoint(path.to)}, ${speed}`,
        program: b.swipe(path.from, path.to, speed),
      };
    }
    case "send_to_clipboard":
      return {
        label: `send_to_clipboard (${[...step.arg.text].length} characters)`,
        clipboard: step.arg.text,
      };
  }
}

export function sequenceTool(deps: PhoneToolDeps): AnyPhoneTool {
  return definePhoneTool({
    name: "sequence",
    title: "Run a few gestures in a row",
    description:
      "Run up to five steps (tap, double_tap, long_press, swipe, send_to_clipboard), each `{tool_name, arg}` with `arg` exactly as that tool takes it, back to back while the phone is held for you — no look in between, so only for steps whose targets are already in the listing and will not move (digits on a keypad, a form you can see whole). Every step is checked before anything moves; it stops at the first failure. The answer lists each step's outcome, one verdict for the whole run and the screen after it.",
    input: toolArgs.sequence,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    needsArm: true,
    async run(args, ctx) {
      const steps = sequenceSteps(args);
      const b = await deps.session.builder(ctx.signal);
      const planned = steps.map((s) => plan(s, b));
      // Check every motion before any moves: a step the soft limits refuse means nothing runs.
      for (const [i, p] of planned.entries()) {
        if (!("program" in p)) continue;
        try {
          deps.session.check(p.program);
        } catch (err) {
          const why = err instanceof PiclawError ? `[${err.code}] ${err.message}` : errorMessage(err);
          return errorResult(`sequence: step${i + 1} (${p.label}) cannot run: ${why}. Nothing was done.`);
        }
      }
      const outcome: string[] = [];
      const acted = await deps.session.act(ctx.signal, async (arm) => {
        for (const [i, p] of planned.entries()) {
          ctx.progress(`sequence: step${i + 1} of ${planned.length}: ${p.label}`);
          try {
            if ("program" in p) await arm.run(p.program);
            else await deps.phoneIo.setClipboard(p.clipboard);
            outcome.push(`step${i + 1}: ${p.label} — done`);
          } catch (err) {
            outcome.push(`step${i + 1}: ${p.label} — failed: ${describeFailure(err, ctx.log)}`);
            for (const [j, rest] of planned.entries())
              if (j > i) outcome.push(`step${j + 1}: ${rest.label} — not run`);
            return false;
          }
        }
        return true;
      });
      const allDone = acted.value === true && acted.error === undefined;
      const done = outcome.filter((l) => l.endsWith("— done")).length;
      const head = `sequence: ${done} of ${planned.length} steps done${allDone ? "" : ", stopped at the first failure"}`;
      const pasted = planned.some((p) => "clipboard" in p) ? [deps.pasteHint ?? PASTE_HINT] : [];
      return gestureResult([head, ...outcome, ...pasted], acted, { isError: !allDone });
    },
  });
}
