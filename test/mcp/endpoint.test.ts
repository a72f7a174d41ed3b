import type { Client } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { MCP_INSTRUCTIONS } from "../../src/mcp/server.js";
import { connectClient, type Era, type StartedMcp, startMcp } from "./helpers.js";

const ERAS: Era[] = ["2025-11-25", "2026-07-28"];

let started: StartedMcp | null = null;
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => {});
  await started?.stop();
  started = null;
});

async function client(era: Era): Promise<Client> {
  if (!started) throw new Error("server not started");
  const c = await connectClient(started.mcpUrl, era);
  clients.push(c);
  return c;
}

function texts(result: { content?: unknown }): string[] {
  const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
  return content.filter((c) => c.type === "text").map((c) => c.text ?? "");
}

describe.each(ERAS)("MCP endpoint, protocol %s", (era) => {
  it("initializes, lists the tools with annotations and schemas, and calls a view", async () => {
    started = await startMcp();
    const c = await client(era);
    expect(c.getNegotiatedProtocolVersion()).toBe(era);
    expect(c.getServerVersion()?.name).toBe("piclaw");
    expect(c.getInstructions()).toBe(MCP_INSTRUCTIONS);
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "peek",
      "screenshot",
      "tap",
      "double_tap",
      "long_press",
      "swipe",
      "home_screen",
      "go_back",
      "force_quit",
      "unlock_phone",
      "send_to_clipboard",
      "sequence",
    ]);
    const peek = tools.find((t) => t.name === "peek");
    const swipe = tools.find((t) => t.name === "swipe");
    expect(peek?.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      openWorldHint: true,
    });
    expect(swipe?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(swipe?.inputSchema).toMatchObject({
      type: "object",
      required: ["bbox", "direction"],
      properties: { bbox: { type: "array", minItems: 4, maxItems: 4 }, size: { default: "m" } },
    });

    const result = await c.callTool({ name: "peek", arguments: {} });
    expect(result.isError).toBeFalsy();
    const content = result.content as Array<{ type: string; mimeType?: string; data?: string }>;
    expect(content[0]).toMatchObject({ type: "image", mimeType: "image/jpeg" });
    expect(Buffer.from(content[0]?.data ?? "", "base64").subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(texts(result)).toEqual(["listing of peek"]);
  });

  it("answers invalid arguments with an error result naming the field; nothing runs", async () => {
    started = await startMcp();
    const c = await client(era);
    const result = await c.callTool({ name: "tap", arguments: { bbox: [0.6, 0.1, 0.4, 0.2] } });
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toBe(
      "tap: invalid arguments: bbox[2] (right) must be greater than bbox[0] (left, 0.6) (got 0.4). Nothing was done.",
    );
    const swipe = await c.callTool({
      name: "swipe",
      arguments: { bbox: [0, 0, 1, 1], direction: "sideways" },
    });
    expect(texts(swipe)[0]).toContain('direction must be one of: up, down, left, right (got "sideways")');
    expect(started.runs).toHaveLength(0);
    const ok = await c.callTool({ name: "swipe", arguments: { bbox: [0, 0, 1, 1], direction: "up" } });
    expect(ok.isError).toBeFalsy();
    expect(started.runs.map((r) => r.args)).toEqual([
      { bbox: [0, 0, 1, 1], direction: "up", size: "m", speed: "medium" },
    ]);
  });

  it("sends progress notifications while a gesture waits for the arm", async () => {
    started = await startMcp({ owner: { progressIntervalMs: 100 } });
    const c = await client(era);
    const lease = await started.owner.acquire({ priority: "local", label: "agent" });
    const progress: string[] = [];
    const call = c.callTool(
      { name: "tap", arguments: { bbox: [0.1, 0.1, 0.2, 0.2] } },
      { onprogress: (p) => progress.push(p.message ?? "") },
    );
    while (progress.length < 2) await new Promise((r) => setTimeout(r, 20));
    expect(started.runs).toHaveLength(0);
    lease.release();
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(progress[0]).toMatch(/^tap: waiting for the arm, 1 ahead \(the arm is in use by agent\)/);
    expect(started.runs[0]?.leaseLabel).toBe("mcp:local");
  });

  it("8 concurrent clients tapping: no two gestures overlap", async () => {
    started = await startMcp({ gestureMs: 15 });
    const all = await Promise.all(Array.from({ length: 8 }, () => client(era)));
    await Promise.all(
      all.map(async (c, i) => {
        for (let k = 0; k < 3; k++) {
          const r = await c.callTool({ name: "tap", arguments: { bbox: [i / 10, 0.1, i / 10 + 0.05, 0.2] } });
          expect(r.isError, texts(r).join()).toBeFalsy();
        }
      }),
    );
    const spans = [...started.runs].sort((a, b) => a.start - b.start);
    expect(spans).toHaveLength(24);
    for (let i = 1; i < spans.length; i++) {
      const prev = spans[i - 1];
      const cur = spans[i];
      if (prev && cur) expect(cur.start).toBeGreaterThanOrEqual(prev.end);
    }
  });
});
