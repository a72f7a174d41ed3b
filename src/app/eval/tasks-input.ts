import {
  bounded,
  type EvalTask,
  end,
  LOCK_EN,
  lookAndUnlock,
  MAX_TURNS,
  momThreadPolicy,
  openApp,
  policy,
  type Step,
} from "./policy-kit.js";
import { findRow, type Row } from "./rows.js";
import type { Decision } from "./scripted-provider.js";

/** Tasks that type on the on-screen keyboard, dial on the Phone keypad, and wait for a reply. */

/** Taps on the given key rows as one `sequence` call (at most five steps, the tool's limit). */
function tapKeys(note: string, keys: readonly Row[]): Decision {
  const args: Record<string, unknown> = {};
  keys.slice(0, 5).forEach((k, i) => {
    args[`step${i + 1}`] = { tool_name: "tap", arg: { bbox: k.box } };
  });
  return { note, tool: "sequence", args };
}

const keyRows = (rows: readonly Row[]) => rows.filter((r) => r.kind === "key");
const isLetter = (c: string) => c.toLowerCase() !== c.toUpperCase();

/**
 * The next taps to type `text` from `typed` on: the listing's `[key]` rows name each key with the case
 * it shows, so a capital needs shift first unless the keys already show capitals (a sentence start),
 * and a run goes on while no case change is needed. Returns the taps and how many characters they type,
 * or a reason when a key is missing.
 */
export function nextKeys(
  rows: readonly Row[],
  text: string,
  typed: number,
): { keys: Row[]; chars: number } | string {
  const keys = keyRows(rows);
  const letters = keys.filter((k) => k.label.length === 1 && isLetter(k.label));
  const upper = letters.filter((k) => k.label === k.label.toUpperCase()).length * 2 > letters.length;
  const find = (label: string) => keys.find((k) => k.label.toLowerCase() === label.toLowerCase());
  const first = text[typed] ?? "";
  if (isLetter(first) && (first === first.toUpperCase()) !== upper) {
    const shift = find("shift");
    return shift ? { keys: [shift], chars: 0 } : "no shift key in the listing";
  }
  const out: Row[] = [];
  for (let i = typed; i < text.length && out.length < 5; i++) {
    const c = text[i] ?? "";
    // After the first letter the keys show lower case (shift and the sentence start are used up).
    if (i > typed && isLetter(c) && c === c.toUpperCase()) break;
    const key = find(c === " " ? "space" : c);
    if (!key) return `no key for "${c}" in the listing`;
    out.push(key);
  }
  return { keys: out, chars: out.length };
}

const MESSAGE = "Be there soon";

/** Type a message to Mom on the keyboard and send it; judged by what the phone sent. */
export const typeMessageTask: EvalTask = {
  id: "type-message",
  prompt: `Send Mom the message "${MESSAGE}", typing it on the on-screen keyboard.`,
  check: ({ truth }) =>
    truth.sent.some((m) => m.to === "Mom" && m.text === MESSAGE)
      ? null
      : `nothing "${MESSAGE}" sent to Mom (sent: ${JSON.stringify(truth.sent)}; field: ${JSON.stringify(truth.input?.text ?? null)})`,
  baseline: () => {
    let typed = 0;
    let sent = false;
    const inThread = (rows: Row[]) =>
      !!findRow(rows, "Mom") && !!(findRow(rows, "iMessage") || findRow(rows, "Send"));
    const compose: Step = ({ rows }) => {
      if (sent) return findRow(rows, MESSAGE) ? end("DONE", `sent "${MESSAGE}" to Mom`) : null;
      if (!inThread(rows)) return null;
      const keyboard = keyRows(rows).some((k) => k.label.toLowerCase() === "q");
      if (!keyboard) {
        const field = findRow(rows, "iMessage");
        return field
          ? { note: "focus the message field", tool: "tap", args: { bbox: field.box } }
          : end("FAIL", "no message field and no keyboard in the listing");
      }
      if (typed >= MESSAGE.length) {
        const send = findRow(rows, "Send");
        if (!findRow(rows, MESSAGE)) return end("FAIL", `the field does not read "${MESSAGE}"`);
        if (!send) return end("FAIL", "no Send button in the listing");
        sent = true;
        return { note: "send it", tool: "tap", args: { bbox: send.box } };
      }
      const next = nextKeys(rows, MESSAGE, typed);
      if (typeof next === "string") return end("FAIL", next);
      typed += next.chars;
      const what = next.chars ? `type "${MESSAGE.slice(typed - next.chars, typed)}"` : "shift";
      return tapKeys(what, next.keys);
    };
    return momThreadPolicy(compose, inThread, MAX_TURNS + 6);
  },
};

/** A UK drama number (Ofcom reserves 020 7946 0000–0999 for fiction). */
const NUMBER = "02079460958";

/** Dial a number on the Phone app's keypad and place the call; judged by the number the phone called. */
export const dialTask: EvalTask = {
  id: "dial-number",
  prompt: "Call 020 7946 0958 using the keypad of the Phone app.",
  check: ({ truth }) =>
    truth.calls.includes(NUMBER)
      ? null
      : `no call to ${NUMBER} (called: ${JSON.stringify(truth.calls)}; keypad: ${JSON.stringify(truth.dialled)})`,
  baseline: () => {
    let typed = 0;
    let called = false;
    const onKeypad = (rows: Row[]) => ["1", "5", "9", "0"].every((d) => findRow(rows, d, "key"));
    const dial: Step = ({ rows }) => {
      if (called)
        return findRow(rows, NUMBER) || findRow(rows, /^calling/)
          ? end("DONE", `calling ${NUMBER}`)
          : end("FAIL", "no call screen after tapping call");
      if (!onKeypad(rows)) return null;
      if (typed < NUMBER.length) {
        const digits = NUMBER.slice(typed, typed + 5);
        const keys = [...digits].map((d) => findRow(rows, d, "key"));
        if (keys.some((k) => !k)) return end("FAIL", "a digit key is missing from the listing");
        typed += digits.length;
        return tapKeys(`dial ${digits}`, keys as Row[]);
      }
      if (!findRow(rows, NUMBER)) return end("FAIL", `the keypad does not show ${NUMBER}`);
      const call = findRow(rows, "call", "key");
      if (!call) return end("FAIL", "no call button in the listing");
      called = true;
      return { note: "place the call", tool: "tap", args: { bbox: call.box } };
    };
    return bounded(
      policy([lookAndUnlock(LOCK_EN), dial, openApp("Phone", onKeypad)], () => end("FAIL", "lost")),
      MAX_TURNS + 4,
    );
  },
};

const REPLY = { from: "Alex Chen", text: "The film starts at 8:15", afterSeconds: 45 };

/**
 * Wait for a reply that comes later: the first session must end WAIT (nothing to read yet); the harness
 * lets the reply arrive, fires the follow-up job the WAIT left, and judges the session that job wakes.
 */
export const waitReplyTask: EvalTask = {
  id: "wait-for-reply",
  prompt:
    "I asked Alex Chen in Messages what time the film starts tonight; he usually answers within a few minutes. When his reply arrives, tell me the time he said.",
  resume: REPLY,
  check: ({ statuses, recap }) => {
    if (statuses[0] !== "WAIT") return `the first session ended ${statuses[0]}, not WAIT`;
    if (statuses.length < 2) return "no session resumed after the WAIT";
    return /8[:.]15/.test(recap) ? null : `the answer "${recap}" is not the time in Alex's reply`;
  },
  baseline: () =>
    bounded(
      policy(
        [
          // A new session starts with no listing: look first.
          ({ rows }) => (rows.length === 0 ? { note: "look at the phone", tool: "peek" } : null),
          ({ rows }) => {
            const from = findRow(rows, REPLY.from);
            if (!from) return null;
            const below = rows
              .filter(
                (r) => r.kind === "text" && r.box[1] >= from.box[3] - 0.005 && r.box[1] < from.box[3] + 0.05,
              )
              .sort((a, b) => a.box[1] - b.box[1])[0];
            return end("DONE", `Alex Chen replied: "${below?.label ?? "?"}"`);
          },
        ],
        () => end("WAIT", "no reply from Alex Chen yet; look again when the follow-up fires"),
      ),
      MAX_TURNS,
    ),
};
