import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { AgentEvents } from "../../src/agent/events.js";
import { agentApiRoutes } from "../../src/app/agent-api.js";
import type { AgentStack } from "../../src/app/agent-stack.js";
import { Logger } from "../../src/log/logger.js";
import type { DashboardAuth } from "../../src/web/auth.js";

/** Issue 18, problem 10: a run stream stays alive while the session is silent (a provider stall). */

let server: Server | null = null;
afterEach(async () => {
  const s = server;
  server = null;
  if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
});

describe("/api/agent/run keep-alives", () => {
  it("sends keepalive lines while the session is silent, and stops them at the outcome", async () => {
    const events = new AgentEvents();
    const outcome = { sessionId: "s1", status: "DONE", recap: "ok", attempts: 1, tokens: {}, costUsd: null };
    // The session ends once the client has seen two keep-alives (a fallback ends it if none come).
    let finish = () => {};
    const agent = {
      events,
      status: () => ({ runtime: { state: "idle" } }),
      run: () =>
        new Promise((resolve) => {
          const fallback = setTimeout(() => resolve(outcome), 5000);
          finish = () => {
            clearTimeout(fallback);
            resolve(outcome);
          };
        }),
    } as unknown as AgentStack;
    const log = Logger.create({ level: "error", format: "json", sink: { write: () => {} }, now: Date.now });
    const routes = agentApiRoutes({
      agent,
      auth: {} as DashboardAuth,
      cliToken: "cli-token-for-test",
      log,
      keepAliveMs: 50,
    });
    const run = routes["/api/agent/run"];
    if (!run) throw new Error("no run route");
    server = createServer((req, res) => void run(req, res));
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", () => resolve()));
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/api/agent/run`, {
      method: "POST",
      headers: { authorization: "Bearer cli-token-for-test", "content-type": "application/json" },
      body: JSON.stringify({ text: "wait for it" }),
    });
    const lines: Array<{ type: string }> = [];
    let buffered = "";
    const decoder = new TextDecoder();
    for await (const chunk of response.body ?? []) {
      buffered += decoder.decode(chunk as Uint8Array, { stream: true });
      for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
        lines.push(JSON.parse(buffered.slice(0, nl)) as { type: string });
        buffered = buffered.slice(nl + 1);
      }
      if (lines.filter((l) => l.type === "keepalive").length >= 2) finish();
    }
    const types = lines.map((l) => l.type);
    expect(types[0]).toBe("queued");
    expect(types.at(-1)).toBe("outcome");
    expect(types.filter((t) => t === "keepalive").length).toBeGreaterThanOrEqual(2);
  });
});
