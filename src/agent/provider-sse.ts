/**
 * A decoder of `text/event-stream` bodies, as specified by the WHATWG HTML Living Standard,
 * §9.2.6 "Interpreting an event stream" (https://html.spec.whatwg.org/multipage/server-sent-events.html):
 * lines end with CRLF, LF or CR; a line starting with `:` is a comment (providers send them as
 * keep-alives); `field: value` drops one space after the colon; `data` lines accumulate, joined by
 * LF; a blank line dispatches the event, unless its data is empty. Only `event` and `data` matter
 * to a chat completion stream; `id` and `retry` (reconnection) are ignored.
 *
 * Bounded: an event (its data plus an unterminated line) longer than `maxChars` throws instead of
 * growing, so a provider that never sends a newline cannot fill the memory.
 */

export interface SseEvent {
  /** The `event:` field, or null for the default `message` type. */
  event: string | null;
  data: string;
}

export class SseDecoder {
  private buffer = "";
  private data: string[] = [];
  private dataChars = 0;
  private event: string | null = null;

  /** `onTooLong(chars)` builds the error thrown when one event would exceed `maxChars`. */
  constructor(
    private readonly maxChars: number,
    private readonly onTooLong: (chars: number) => Error,
  ) {}

  /** Decoded text in, complete events out (in order). */
  push(text: string): SseEvent[] {
    this.buffer += text;
    const events: SseEvent[] = [];
    let start = 0;
    for (;;) {
      const lf = this.buffer.indexOf("\n", start);
      const cr = this.buffer.indexOf("\r", start);
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (end === -1) break;
      // A CR at the very end may be the first half of a CRLF split across reads: wait for more.
      if (end === cr && cr === this.buffer.length - 1) break;
      const next = end === cr && this.buffer[cr + 1] === "\n" ? cr + 2 : end + 1;
      const event = this.line(this.buffer.slice(start, end));
      if (event) events.push(event);
      start = next;
    }
    this.buffer = this.buffer.slice(start);
    const pending = this.dataChars + this.buffer.length;
    if (pending > this.maxChars) throw this.onTooLong(pending);
    return events;
  }

  /** End of the body: a last event without its blank line is dispatched (lenient, as browsers are not). */
  end(): SseEvent[] {
    const events = this.push("\n");
    const last = this.line("");
    return last ? [...events, last] : events;
  }

  private line(line: string): SseEvent | null {
    if (line === "") {
      const event = this.dataChars > 0 || this.data.length > 0 ? this.dispatch() : null;
      this.event = null;
      return event;
    }
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      this.data.push(value);
      this.dataChars += value.length + 1;
      if (this.dataChars > this.maxChars) throw this.onTooLong(this.dataChars);
    } else if (field === "event") {
      this.event = value;
    }
    return null;
  }

  private dispatch(): SseEvent | null {
    const data = this.data.join("\n");
    this.data = [];
    this.dataChars = 0;
    return data === "" ? null : { event: this.event, data };
  }
}
