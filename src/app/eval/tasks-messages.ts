import { bounded, type EvalTask, end, MAX_TURNS, momThreadPolicy, policy, type Step } from "./policy-kit.js";
import { findRow, type Row } from "./rows.js";

/** The Messages tasks: read a thread, send by paste, read a notification on the lock screen. */

/** Read Mom's last message in her thread (received bubbles sit on the left). */
export const readMessageTask: EvalTask = {
  id: "read-message",
  prompt: "What was the last message Mom sent me in Messages?",
  check: ({ recap }) =>
    /see you at 6/i.test(recap) ? null : `the answer "${recap}" is not Mom's last message`,
  baseline: () => {
    const inThread = (rows: Row[]) => !!findRow(rows, "Mom") && !!findRow(rows, "iMessage");
    const read: Step = ({ rows }) => {
      if (!inThread(rows)) return null;
      const received = rows
        .filter((r) => r.kind === "text" && r.box[0] < 0.25 && r.box[1] > 0.12 && r.box[3] < 0.88)
        .filter((r) => !/^(Mom|iMessage|Delivered|Today.*)$/.test(r.label))
        .sort((a, b) => b.box[1] - a.box[1]);
      const last = received[0];
      return last
        ? end("DONE", `Mom's last message: "${last.label}"`)
        : end("FAIL", "no received message found");
    };
    return momThreadPolicy(read, inThread, MAX_TURNS);
  },
};

/** Send a text through the clipboard: the phone has no keyboard the arm can type on in the simulator. */
export const sendMessageTask: EvalTask = {
  id: "send-message",
  prompt: 'Send the message "On my way" to Mom.',
  check: ({ truth }) => {
    if (!/^Messages: thread with Mom/.test(truth.state)) return `not in Mom's thread (${truth.state})`;
    return truth.elements.some((e) => e.label === "On my way") ? null : "no bubble saying On my way";
  },
  baseline: () => {
    let copied = false;
    let sent = false;
    const inThread = (rows: Row[]) =>
      !!findRow(rows, "Mom") && !!(findRow(rows, "iMessage") || findRow(rows, "Send"));
    const compose: Step = ({ rows }) => {
      if (sent && findRow(rows, "On my way")) return end("DONE", "sent On my way to Mom");
      if (!inThread(rows)) return null;
      if (!copied) {
        copied = true;
        return {
          note: "put the text on the clipboard",
          tool: "send_to_clipboard",
          args: { text: "On my way" },
        };
      }
      const paste = findRow(rows, "Paste");
      if (paste) return { note: "paste it", tool: "tap", args: { bbox: paste.box } };
      const draft = findRow(rows, "On my way");
      const send = findRow(rows, "Send");
      if (draft && send) {
        sent = true;
        return { note: "send it", tool: "tap", args: { bbox: send.box } };
      }
      const field = findRow(rows, "iMessage");
      if (field)
        return { note: "open the edit menu on the field", tool: "long_press", args: { bbox: field.box } };
      return null;
    };
    return momThreadPolicy(compose, inThread, MAX_TURNS + 4);
  },
};

export const notificationTask: EvalTask = {
  id: "lock-screen-message",
  prompt: "Is there a new message? Tell me who sent it and what it says.",
  phone: { notifications: [{ afterSeconds: 0, from: "Dana Park", text: "The keys are under the mat" }] },
  check: ({ recap }) =>
    /dana/i.test(recap) && /keys are under the mat/i.test(recap)
      ? null
      : `the answer "${recap}" misses sender or text`,
  baseline: () =>
    bounded(
      policy(
        [
          ({ rows, turn }) => (turn === 1 || rows.length === 0 ? { note: "look", tool: "peek" } : null),
          ({ rows }) => {
            const from = findRow(rows, "Dana Park");
            if (!from) return null;
            const below = rows
              .filter(
                (r) => r.kind === "text" && r.box[1] >= from.box[3] - 0.005 && r.box[1] < from.box[3] + 0.05,
              )
              .sort((a, b) => a.box[1] - b.box[1])[0];
            return end("DONE", `Dana Park wrote: "${below?.label ?? "?"}"`);
          },
        ],
        () => end("IDLE", "no new message on the screen"),
      ),
      MAX_TURNS,
    ),
};
