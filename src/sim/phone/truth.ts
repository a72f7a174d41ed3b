import { phoneUi } from "./apps/dialer.js";
import { messagesUi } from "./apps/messages.js";
import type { PhoneScreen, PhoneState } from "./state.js";

/** What was typed, dialled, called and sent: the parts of truth() the eval's checks read. */
export interface InputTruth {
  /** The focused text field (keyboard up) and its text, when it is on screen. */
  input: { field: string; text: string } | null;
  /** The number typed on the Phone keypad, when the keypad is on screen. */
  dialled: string | null;
  /** The call in progress (the call screen), if any. */
  call: { number: string } | null;
  /** Every number called, oldest first. */
  calls: string[];
  /** Messages sent from this phone since it started, oldest first. */
  sent: { to: string; text: string }[];
}

export function inputTruth(s: PhoneState, screen: PhoneScreen, sinceMs: number): InputTruth {
  const app = screen === "app" ? s.foreground : null;
  const messages = app === "messages" ? messagesUi(s) : null;
  const dialer = app === "phone" && !s.call ? phoneUi(s) : null;
  return {
    input: messages?.focused && messages.threadId ? { field: "messages.field", text: messages.draft } : null,
    dialled: dialer?.tab === "keypad" ? dialer.entry : null,
    call: s.call ? { number: s.call.number } : null,
    calls: s.calls.map((c) => c.number),
    sent: s.threads
      .flatMap((t) =>
        t.messages
          .filter((m) => m.fromMe && m.atMs >= sinceMs)
          .map((m) => ({ to: t.name, text: m.text, atMs: m.atMs })),
      )
      .sort((a, b) => a.atMs - b.atMs)
      .map(({ to, text }) => ({ to, text })),
  };
}
