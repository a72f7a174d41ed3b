import { afterEach, describe, expect, it } from "vitest";
import { MCP_HEADERS, type StartedMcp, startMcp } from "./helpers.js";

/**
 * Issue 19 item 5: keys a schema library drops or treats specially (`__proto__`, `constructor`)
 * are refused like any unknown key when they arrive over MCP — checked on the raw JSON-RPC body,
 * because the SDK's own params schema rebuilds the arguments without `__proto__`.
 */

let started: StartedMcp | null = null;
afterEach(async () => {
  await started?.stop();
  started = null;
});

/** POST one raw JSON-RPC body (text, so own `__proto__` keys survive) in the 2025-11-25 era. */
async function post(url: string, body: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { ...MCP_HEADERS, "mcp-protocol-version": "2025-11-25" },
    body,
  });
  return { status: res.status, text: await res.text() };
}

const call = (id: number, name: string, argumentsJson: string) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${argumentsJson}}}`;

const BOX = "[0.1,0.1,0.3,0.3]";
const BAD: readonly [tool: string, args: string, key: string][] = [
  ["tap", `{"bbox":${BOX},"__proto__":{"polluted":true}}`, "__proto__"],
  ["tap", `{"__proto__":{"bbox":${BOX}}}`, "__proto__"],
  ["double_tap", `{"bbox":${BOX},"__proto__":null}`, "__proto__"],
  ["long_press", `{"bbox":${BOX},"constructor":{"prototype":{"x":1}}}`, "constructor"],
  ["swipe", `{"bbox":${BOX},"direction":"up","__proto__":{"speed":"fast"}}`, "__proto__"],
  ["home_screen", `{"__proto__":{}}`, "__proto__"],
  ["sequence", `{"step1":{"tool_name":"tap","arg":{"bbox":${BOX},"__proto__":{}}}}`, "__proto__"],
  ["sequence", `{"step1":{"tool_name":"tap","arg":{"bbox":${BOX}}},"__proto__":{}}`, "__proto__"],
  ["send_to_clipboard", `{"text":"hi","constructor":"x"}`, "constructor"],
];

describe("strict tool arguments over MCP", () => {
  it("refuses __proto__ and constructor keys at any depth; nothing moves; a clean call still runs", async () => {
    started = await startMcp();
    let refused = 0;
    for (const [i, [tool, args, key]] of BAD.entries()) {
      const reply = await post(started.mcpUrl, call(i + 1, tool, args));
      expect(reply.status, reply.text).toBe(200);
      expect(reply.text, `${tool} ${args}`).toContain(`invalid arguments`);
      expect(reply.text, `${tool} ${args}`).toContain(`unknown key: ${key}`);
      refused += 1;
    }
    expect(refused).toBe(BAD.length);
    expect(started.runs).toHaveLength(0);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    // The same call without the key runs (so the refusals above are about the key).
    const clean = await post(started.mcpUrl, call(100, "tap", `{"bbox":${BOX}}`));
    expect(clean.text).not.toContain("invalid arguments");
    expect(started.runs).toHaveLength(1);
  });
});
