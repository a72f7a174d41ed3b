import { spawn } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DeviceStore } from "../../src/bridge/credentials.js";
import { systemClock } from "../../src/util/clock.js";
import { compileForChild } from "../jobs/child/compile.js";
import { type StartedMcp, startMcp } from "../mcp/helpers.js";

const here = dirname(new URL(import.meta.url).pathname);
let writerJs = "";

/** Run test/util/child/secret-writer.ts in its own node process; resolves to its stdout lines. */
function runWriter(args: string[]): Promise<string[]> {
  const child = spawn(process.execPath, [writerJs, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (c: Buffer) => {
    out += c.toString("utf8");
  });
  child.stderr.on("data", (c: Buffer) => {
    err += c.toString("utf8");
  });
  return new Promise((resolve, reject) =>
    child.on("exit", (code) =>
      code === 0
        ? resolve(out.split("\n").filter(Boolean))
        : reject(new Error(`writer exited ${code}: ${err}`)),
    ),
  );
}

/** Send an MCP initialize with `token` to the running endpoint; the HTTP status. */
async function statusWith(mcpUrl: string, token: string): Promise<number> {
  const res = await fetch(mcpUrl, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "race", version: "1" } },
    }),
  });
  await res.arrayBuffer();
  return res.status;
}

let started: StartedMcp | null = null;

describe("token and bridge-device files under concurrent writers (issue 19 item 1)", () => {
  beforeAll(async () => {
    writerJs = await compileForChild(join(here, "child/secret-writer.ts"));
  });
  afterAll(async () => {
    await started?.stop();
    rmSync(dirname(dirname(dirname(dirname(writerJs)))), { recursive: true, force: true });
  });

  it("4 processes creating and revoking for 10 s: every revocation sticks, every creation is kept", async () => {
    // The daemon side: a running MCP endpoint that needs a token, and a bridge device store, both
    // opened before the writers start (so their cached reads must follow every change).
    started = await startMcp({ bindHost: "0.0.0.0", config: { rateLimitPerMinute: 100_000 } });
    const tokenFile = started.tokens.path;
    const deviceFile = join(dirname(tokenFile), "bridge-devices.json");
    const daemonDevices = new DeviceStore(deviceFile, systemClock);
    const { token: probe } = await started.tokens.create("probe");
    let polls = 0;
    let polling = true;
    const poller = (async () => {
      while (polling) {
        expect(await statusWith(started?.mcpUrl ?? "", probe)).toBe(200);
        daemonDevices.list();
        polls++;
      }
    })();

    let outputs: string[][];
    try {
      outputs = await Promise.all(
        ["a", "b", "c", "d"].map((name) => runWriter([tokenFile, deviceFile, name, "10000", "200"])),
      );
    } finally {
      polling = false;
      await poller;
    }

    const lines = outputs.flat().map((l) => l.split(" ") as [string, string, string]);
    const pick = (kind: string) => lines.filter(([k]) => k === kind);
    const revokedTokens = new Set(pick("token-").map(([, id]) => id));
    const createdTokens = pick("token+");
    const liveTokens = createdTokens.filter(([, id]) => !revokedTokens.has(id));
    // Enough of each for a real race (each writer made at least 200 operations).
    expect(createdTokens.length).toBeGreaterThanOrEqual(200);
    expect(revokedTokens.size).toBeGreaterThanOrEqual(100);

    // Every created token that was not revoked is stored, and the running endpoint accepts it.
    const stored = new Set(started.tokens.list().map((t) => t.id));
    expect(liveTokens.filter(([, id]) => !stored.has(id))).toEqual([]);
    expect(stored.size).toBe(liveTokens.length + 1); // + the probe
    for (const [, , token] of liveTokens) expect(await statusWith(started.mcpUrl, token)).toBe(200);
    // Every revoked token is refused by the running endpoint (and by a fresh reader of the file).
    for (const [, id, token] of pick("token-")) {
      expect(stored.has(id)).toBe(false);
      expect(await statusWith(started.mcpUrl, token)).toBe(401);
    }

    // The same for bridge devices, checked by the daemon's long-lived store.
    const revokedDevices = new Set(pick("device-").map(([, id]) => id));
    const liveDevices = pick("device+").filter(([, id]) => !revokedDevices.has(id));
    expect(revokedDevices.size).toBeGreaterThanOrEqual(100);
    expect(
      daemonDevices
        .list()
        .map((d) => d.id)
        .sort(),
    ).toEqual(liveDevices.map(([, id]) => id).sort());
    for (const [, , credential] of liveDevices) expect(daemonDevices.verify(credential)).not.toBeNull();
    for (const [, , credential] of pick("device-")) expect(daemonDevices.verify(credential)).toBeNull();

    expect(polls).toBeGreaterThan(0);
    // No lock or temp file is left behind.
    expect(readdirSync(dirname(tokenFile)).filter((f) => /\.(lock|tmp)$/.test(f))).toEqual([]);
  }, 120_000);
});
