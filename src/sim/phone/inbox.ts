import { PiclawError } from "../../util/errors.js";
import type { PhoneState } from "./state.js";

/** A message that arrives on the phone at `atMs` (clock time), as if sent by `from`. */
export interface ScheduledNotification {
  atMs: number;
  app: "messages";
  from: string;
  text: string;
}

/** How long a message banner stays on screen. */
export const BANNER_MS = 5000;

/** Messages waiting to arrive, in time order. */
export class Inbox {
  private readonly pending: ScheduledNotification[] = [];

  /** PiclawError SIM_PHONE_NOTIFICATION for anything but a Messages notification at a finite time. */
  add(list: readonly ScheduledNotification[]): void {
    for (const n of list)
      if (n.app !== "messages" || !Number.isFinite(n.atMs))
        throw new PiclawError(
          "SIM_PHONE_NOTIFICATION",
          'notifications need app "messages" and a finite atMs',
          { from: n.from },
        );
    this.pending.push(...list);
    this.pending.sort((a, b) => a.atMs - b.atMs);
  }

  /** When the next message arrives (+∞ when none is waiting). */
  get nextAt(): number {
    return this.pending[0]?.atMs ?? Number.POSITIVE_INFINITY;
  }

  /** Take the next message out of the queue. */
  take(): ScheduledNotification | undefined {
    return this.pending.shift();
  }
}

/** A message arrives: into its thread (a new one for a new sender), lighting the screen, with a banner. */
export function deliver(s: PhoneState, n: ScheduledNotification): void {
  let thread = s.threads.find((t) => t.name === n.from);
  if (!thread) {
    thread = { id: `t${s.threads.length}`, name: n.from, messages: [], unread: 0 };
    s.threads.push(thread);
  }
  thread.messages.push({ fromMe: false, text: n.text, atMs: n.atMs });
  const reading =
    s.screenOn &&
    !s.locked &&
    !s.switcher &&
    s.foreground === "messages" &&
    s.ui.messages?.threadId === thread.id;
  if (reading) return;
  thread.unread++;
  if (!s.screenOn) {
    s.screenOn = true; // like iOS, a new message lights up the lock screen
    s.lastActivityMs = n.atMs;
  }
  if (!s.locked) s.banner = { threadId: thread.id, from: n.from, text: n.text, untilMs: n.atMs + BANNER_MS };
}
