import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { parseConfig } from "../src/app/config/load.js";
import { Daemon } from "../src/app/daemon.js";
import { Logger } from "../src/log/logger.js";
import { systemClock } from "../src/util/clock.js";

/**
 * Phone-tool latencies as an MCP client sees them, on the simulated rig in real time: the daemon in this
 * process (GRBL driver over a pty, rpicam-vid stand-in, real OCR and detector), a fresh state directory
 * (so it calibrates first), then peek, tap (with its verdict and fresh listing) and unlock_phone.
 * Usage: `npm run build && node dist/bench/tools.js [rounds]` (default 5). Prints; never fails on numbers.
 */
export async function toolsBench(rounds = 5): Promise<string[]> {
  const stateDir = mkdtempSync(join(tmpdir(), "piclaw-bench-tools-"));
  const log = Logger.create({ level: "error", format: "human", sink: { write() {} }, now: Date.now });
  const config = parseConfig({ stateDir, server: { port: 0 }, sim: { phone: { utcOffsetMinutes: 0 } } });
  const daemon = new Daemon({ config, path: null, stateDir }, log, systemClock, {});
  const client = new Client({ name: "piclaw-bench", version: "1.0.0" });
  const times: Record<string, number[]> = { peek: [], tap: [], unlock_phone: [] };
  try {
    const t0 = performance.now();
    await daemon.start();
    await client.connect(new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`)));
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const start = performance.now();
      const res = await client.callTool({ name, arguments: args });
      const ms = performance.now() - start;
      const text = (res.content as { type: string; text?: string }[])
        .filter((c) => c.type === "text")
        .map((c) => c.text ?? "");
      if (res.isError) throw new Error(`${name} failed: ${text.join("\n")}`);
      return { ms, text };
    };
    await call("peek"); // waits for the first-start calibration
    const ready = performance.now() - t0;
    const rig = daemon.simRig;
    if (!rig) throw new Error("no simulated rig");
    for (let i = 0; i < rounds; i++) {
      rig.phone.pressSideButton();
      if (rig.truth().screen !== "off") rig.phone.pressSideButton();
      times.unlock_phone?.push((await call("unlock_phone")).ms);
      const peek = await call("peek");
      times.peek?.push(peek.ms);
      const clock = /"Clock" \[([\d.]+),([\d.]+),([\d.]+),([\d.]+)\]/.exec(peek.text.at(-1) ?? "");
      if (!clock) throw new Error("no Clock row in the listing");
      times.tap?.push((await call("tap", { bbox: clock.slice(1, 5).map(Number) })).ms);
      await call("home_screen");
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
    return [
      `phone tools over MCP on the simulated rig (corexy-fluidnc over GRBL, rpicam-vid stand-in ≤10 fps), ${rounds} rounds:`,
      `  start + first-start calibration until the first peek answered: ${(ready / 1000).toFixed(1)} s`,
      ...Object.entries(times).map(
        ([name, xs]) =>
          `  ${name.padEnd(13)} median ${(median(xs) / 1000).toFixed(2)} s (${xs.map((x) => (x / 1000).toFixed(2)).join(", ")})`,
      ),
    ];
  } finally {
    await client.close().catch(() => undefined);
    await daemon.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await toolsBench(Number(process.argv[2] ?? 5))) process.stdout.write(`${line}\n`);
}
