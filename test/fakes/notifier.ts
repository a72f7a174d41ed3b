import type { Notifier, NotifyFields } from "../../src/app/notify.js";
import { notifyLines } from "../../src/app/notify.js";

export interface FakeNotifierOptions {
  /** As if `NOTIFY_SOCKET` were set (default true). */
  enabled?: boolean;
  /** Make every `notify()` fail (resolve false), as when the helper or socket is missing. */
  failing?: boolean;
}

/**
 * A notifier that records messages instead of sending them, for tests of code that notifies (the
 * daemon, the watchdog). Follows the `Notifier` contract; `messages` holds what was delivered, as the
 * `KEY=VALUE` lines a supervisor would read.
 */
export class FakeNotifier implements Notifier {
  readonly enabled: boolean;
  readonly messages: string[][] = [];
  failing: boolean;
  private closed = false;

  constructor(options: FakeNotifierOptions = {}) {
    this.enabled = options.enabled ?? true;
    this.failing = options.failing ?? false;
  }

  async notify(fields: NotifyFields): Promise<boolean> {
    const lines = notifyLines(fields);
    if (!this.enabled || this.closed || this.failing) return false;
    this.messages.push(lines);
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  /** Every delivered line, flattened (e.g. to look for `READY=1`). */
  lines(): string[] {
    return this.messages.flat();
  }
}
