import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { jsonLines, KEEP_ALIVE_LINE, keepAliveLines } from "../../src/http/json-lines.js";
import { PiclawError } from "../../src/util/errors.js";

/** An NDJSON server whose handler is the test's; returns its URL. */
async function serve(handler: (res: ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/x-ndjson" });
    handler(res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

async function collect(url: string, idleTimeoutMs?: number): Promise<Record<string, unknown>[]> {
  const res = await fetch(url);
  if (!res.body) throw new Error("no body");
  const out: Record<string, unknown>[] = [];
  for await (const v of jsonLines(res.body, idleTimeoutMs ? { idleTimeoutMs } : {})) out.push(v);
  return out;
}

describe("NDJSON streams with keep-alives (issue 18, problem 10)", () => {
  let server: Server | null = null;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    server = null;
  });

  it("a stream quiet for longer than the client's idle limit, but keeping alive, is read to its end", async () => {
    const s = await serve((res) => {
      res.write(`${JSON.stringify({ type: "queued" })}\n`);
      const stop = keepAliveLines(res, 40);
      // The "session" takes 8 keep-alive periods, 4× the client's idle limit, before its outcome.
      setTimeout(() => {
        stop();
        res.end(`${JSON.stringify({ type: "outcome", status: "DONE" })}\n`);
      }, 320);
    });
    server = s.server;
    const lines = await collect(s.url, 80);
    expect(lines[0]).toEqual({ type: "queued" });
    expect(lines.at(-1)).toEqual({ type: "outcome", status: "DONE" });
    expect(lines.filter((l) => l.type === KEEP_ALIVE_LINE.type).length).toBeGreaterThanOrEqual(2);
  });

  it("a client loop blocked past the idle limit reads the keep-alive waiting in the socket before judging", async () => {
    // As on a loaded machine: timers run before the socket is read after a long block.
    const s = await serve((res) => {
      res.write(`${JSON.stringify({ type: "queued" })}\n`);
      const stop = keepAliveLines(res, 40);
      setTimeout(() => {
        stop();
        res.end(`${JSON.stringify({ type: "outcome", status: "DONE" })}\n`);
      }, 600);
    });
    server = s.server;
    // Blocked in the check phase, so the next loop turn starts with the timers phase (a block inside a
    // timer callback would not do: libuv compares due times with the turn's cached start time).
    const blocks = setInterval(
      () =>
        setImmediate(() => {
          for (const end = Date.now() + 200; Date.now() < end; ) {
            // busy, 2.5× the client's idle limit; the keep-alive is due meanwhile
          }
        }),
      100,
    );
    try {
      const lines = await collect(s.url, 80);
      expect(lines.at(-1)).toEqual({ type: "outcome", status: "DONE" });
    } finally {
      clearInterval(blocks);
    }
  });

  it("a stream that goes silent fails with STREAM_SILENT after the idle limit, not never", async () => {
    const s = await serve((res) => {
      res.write(`${JSON.stringify({ type: "queued" })}\n`); // then nothing, connection left open
    });
    server = s.server;
    const err = await collect(s.url, 150).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PiclawError);
    expect((err as PiclawError).code).toBe("STREAM_SILENT");
  });
});
