import type { ScreenView } from "../vision/pipeline.js";
import { toolArgs } from "./args.js";
import { describeFailure, type PhoneToolDeps } from "./context.js";
import { findKeypad, type Keypad, looksDark, looksLocked } from "./keypad.js";
import { gestureResult, listingPart } from "./results.js";
import type { Acted } from "./rig-session.js";
import { homeSwipe } from "./screen-geometry.js";
import {
  type AnyPhoneTool,
  definePhoneTool,
  errorResult,
  jpegPart,
  type ToolContext,
  type ToolResult,
} from "./types.js";

/**
 * Fresh looks taken before a keypad verdict is believed. A frame can predate the gesture it is meant to
 * show (under load a camera frame rendered before the swipe may arrive after it and pass as new), and
 * the two verdicts that rest on one frame are costly: "no keypad appeared" and "the passcode was
 * refused" (which tells the model not to retry). Each extra look waits `settleMs` first.
 */
const CONFIRM_LOOKS = 2;

/**
 * unlock_phone: look first (a screen that is neither dark, nor the lock screen, nor the keypad is an
 * unlocked phone: say so and touch nothing) → wake → swipe up → find the keypad with OCR → type the
 * passcode → check the keypad is gone. The passcode is a secret: it is read at call time from
 * `deps.passcode()` and appears in no result, error or log line (results say "the passcode", never
 * digits or its length).
 */
export function unlockPhoneTool(deps: PhoneToolDeps): AnyPhoneTool {
  return definePhoneTool({
    name: "unlock_phone",
    title: "Unlock the phone",
    description:
      "Unlock the phone with its configured passcode: looks first and does nothing when the phone is already unlocked (an app or the home screen showing); otherwise wakes a dark screen, swipes up to the keypad, finds the digits on it and taps the passcode, then checks that the keypad is gone and the lock screen did not come back. Takes about 5–10 s. Use it whenever the listing shows a lock screen or a passcode keypad; you never need (or get) the passcode yourself. If it reports that the passcode was refused, do not retry — tell the user (repeated wrong passcodes lock the phone for longer and longer).",
    input: toolArgs.unlock_phone,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    needsArm: true,
    run: (_args, ctx) => unlock(deps, ctx),
  });
}

async function unlock(deps: PhoneToolDeps, ctx: ToolContext): Promise<ToolResult> {
  const passcode = deps.passcode();
  if (!passcode)
    return errorResult(
      "unlock_phone: no passcode is configured (phone.passcodeFile, phone.passcode or PICLAW_PHONE_PASSCODE). Nothing was done.",
    );
  const { session } = deps;
  const steps: string[] = [];
  const b = await session.builder(ctx.signal);

  // 1. Wake: a dark screen shows nothing to read. A woken phone shows its lock screen, so the swipe
  // comes next without another look (a screen that stayed dark shows up after the swipe).
  ctx.progress("unlock_phone: looking at the screen");
  const view: ScreenView = await session.look(ctx.signal);
  let keypad: Keypad | null = null;
  if (looksDark(view.screen, view.entries)) {
    if (deps.wake) {
      await deps.wake.wake();
      steps.push(`woke the screen (${deps.wake.description})`);
    } else {
      const program = b.tap({ x: 0.5, y: 0.5 });
      session.check(program);
      const woke = await session.act(ctx.signal, (arm) => arm.run(program));
      if (woke.error !== undefined) return failed(["unlock_phone: waking the screen failed"], woke, ctx);
      steps.push("woke the screen (tap to wake)");
    }
    await deps.sleep(deps.settleMs);
  } else {
    keypad = findKeypad(view.entries);
    if (!keypad && !looksLocked(view.entries)) return alreadyUnlocked(view);
  }

  // 2. Keypad: on the lock screen it appears after a swipe up from the bottom edge.
  let lastAct: Acted<void> | null = null;
  if (!keypad) {
    ctx.progress("unlock_phone: swiping up to the keypad");
    const path = homeSwipe(b.glassMm);
    const program = b.swipe(path.from, path.to, "fast");
    session.check(program);
    lastAct = await session.act(ctx.signal, (arm) => arm.run(program));
    steps.push("swiped up from the bottom edge");
    if (lastAct.error !== undefined) return failed(steps, lastAct, ctx);
    if (!lastAct.after) return failed([...steps, "could not see the screen afterwards"], lastAct, ctx);
    let seen = lastAct.after.view;
    keypad = findKeypad(seen.entries);
    const stillLocked = (v: ScreenView) => looksLocked(v.entries) || looksDark(v.screen, v.entries);
    for (let i = 0; i < CONFIRM_LOOKS && !keypad && stillLocked(seen); i++) {
      // One frame without the keypad is not proof (see CONFIRM_LOOKS): look again before saying so.
      await deps.sleep(deps.settleMs);
      seen = await session.look(ctx.signal);
      keypad = findKeypad(seen.entries);
    }
    if (keypad && seen !== lastAct.after.view)
      lastAct = { ...lastAct, after: { ...lastAct.after, view: seen } };
    if (!keypad && looksDark(seen.screen, seen.entries))
      return failed(
        [...steps, "unlock_phone failed: the screen is dark; no keypad to type on."],
        lastAct,
        ctx,
      );
    if (!keypad) {
      const now =
        "next: read the listing below: a home screen or an app means the phone is unlocked already.";
      return gestureResult(
        [...steps, "unlock_phone: no passcode keypad appeared after the swipe."],
        lastAct,
        { hints: { changed: now, "no visible change": now } },
      );
    }
  }

  // 3. Type the passcode: one program, so the digits follow each other without pauses.
  ctx.progress("unlock_phone: typing the passcode");
  const inferred = [...passcode].some((d) => keypad?.[d as keyof typeof keypad].inferred);
  const program = [...passcode].flatMap((d) => b.tap(keypad[d as keyof typeof keypad].at));
  session.check(program);
  const typed = await session.act(ctx.signal, (arm) => arm.run(program));
  steps.push(
    `typed the passcode on the keypad${inferred ? " (some keys placed from the keypad's grid)" : ""}`,
  );
  if (typed.error !== undefined) return failed(steps, typed, ctx);

  // 4. Check: the keypad must be gone — in a fresh look too, before calling the passcode refused.
  let after = typed.after?.view ?? null;
  if (!after) return failed([...steps, "could not see the screen afterwards to check"], typed, ctx);
  for (let i = 0; i < CONFIRM_LOOKS && findKeypad(after.entries); i++) {
    await deps.sleep(deps.settleMs);
    after = await session.look(ctx.signal);
  }
  if (typed.after && after !== typed.after.view) typed.after = { ...typed.after, view: after };
  if (findKeypad(after.entries)) {
    return gestureResult(
      [
        ...steps,
        "unlock_phone failed: the keypad is still showing, so the passcode was refused or a digit was missed.",
      ],
      typed,
      {
        isError: true,
        hints: {
          changed:
            "next: do not retry on your own (wrong passcodes lock the phone for longer); tell the user to check the configured passcode.",
          "no visible change":
            "next: do not retry on your own (wrong passcodes lock the phone for longer); tell the user to check the configured passcode.",
        },
      },
    );
  }
  if (looksLocked(after.entries)) {
    return gestureResult(
      [
        ...steps,
        "unlock_phone failed: the lock screen is back, so the phone is still locked (the keypad closed before the passcode was accepted, or taps went astray).",
      ],
      typed,
      {
        isError: true,
        hints: {
          changed: "next: peek, then run unlock_phone once more; if it fails again, tell the user.",
          "no visible change":
            "next: peek, then run unlock_phone once more; if it fails again, tell the user.",
        },
      },
    );
  }
  return gestureResult([...steps, "unlock_phone: unlocked (no keypad on screen any more)"], typed, {
    hints: { changed: "next: the phone is unlocked; the listing below is the screen now." },
  });
}

/** Nothing to do: the result says so and shows the screen it judged by. */
function alreadyUnlocked(view: ScreenView): ToolResult {
  const text = [
    "unlock_phone: the phone is already unlocked (no lock screen, passcode keypad or dark screen): nothing was done.",
    "next: the image and listing below are the screen now; go on from there.",
  ].join("\n");
  return {
    content: [{ type: "text", text }, jpegPart(view.image), listingPart("listing:", view)],
    isError: false,
  };
}

function failed(steps: string[], acted: Acted<unknown>, ctx: ToolContext): ToolResult {
  const why = acted.error !== undefined ? [`failed: ${describeFailure(acted.error, ctx.log)}`] : [];
  return gestureResult([...steps, ...why], acted, { isError: true });
}
