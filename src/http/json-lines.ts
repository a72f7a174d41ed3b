import type { ServerResponse } from "node:http";
import { PiclawError } from "../util/errors.js";

/**
 * The objects of a newline-delimited JSON stream (the daemon's streaming API replies), one per line,
 * as they arrive. A line that is not JSON throws (SyntaxError): the daemon writes only JSON lines.
 * With `idleTimeoutMs`, a stream that sends nothing for that long throws PiclawError `STREAM_SILENT`
 * (a daemon streaming with `keepAliveLines` writes a line at least every few seconds, so silence means
 * the daemon or the connection is gone); the body is cancelled first.
 */
export async function* jsonLines(
  body: AsyncIterable<Uint8Array>,
  options: { idleTimeoutMs?: number } = {},
): AsyncGenerator<Record<string, unknown>> {
  let buffered = "";
  const decoder = new TextDecoder();
  const chunks = options.idleTimeoutMs ? withIdleTimeout(body, options.idleTimeoutMs) : body;
  for await (const chunk of chunks) {
    buffered += decoder.decode(chunk, { stream: true });
    for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      yield JSON.parse(line) as Record<string, unknown>;
    }
  }
}

async function* withIdleTimeout(body: AsyncIterable<Uint8Array>, idleMs: number): AsyncGenerator<Uint8Array> {
  const it = body[Symbol.asyncIterator]();
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const silent = new Promise<"silent">((resolve) => {
        // The verdict waits one setImmediate: after the event loop was blocked past `idleMs`, the timers
        // phase runs before the poll phase, so a line already waiting in the socket has not been read yet
        // (the check phase comes after the poll phase; a read there settles the race first).
        timer = setTimeout(() => setImmediate(() => resolve("silent")), idleMs);
      });
      const next = await Promise.race([it.next(), silent]).finally(() => clearTimeout(timer));
      if (next === "silent")
        throw new PiclawError("STREAM_SILENT", `the daemon sent nothing for ${Math.round(idleMs / 1000)} s`, {
          idleMs,
        });
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // Cancel the body (and with it the connection) whether we stopped early, timed out or finished.
    void it.return?.()?.catch(() => {});
  }
}

/** The line `keepAliveLines` writes; readers skip it. */
export const KEEP_ALIVE_LINE = { type: "alive" } as const;

/**
 * Write `{"type":"alive"}` on an NDJSON response every `everyMs` until the returned stop is called or
 * the response ends, so clients (and proxies) with an idle timeout — undici's fetch drops a body silent
 * for 300 s — keep a long-running stream (an agent session waiting on a slow provider) open.
 */
export function keepAliveLines(res: ServerResponse, everyMs: number): () => void {
  const timer = setInterval(() => {
    if (!res.writableEnded && !res.destroyed) res.write(`${JSON.stringify(KEEP_ALIVE_LINE)}\n`);
  }, everyMs);
  const stop = () => clearInterval(timer);
  res.once("close", stop);
  return stop;
}
