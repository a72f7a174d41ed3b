import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { projectRoot } from "../src/util/paths.js";

/**
 * The simulated appliance as a user meets it: `piclaw start` on a fresh state directory → serving →
 * ready (after its start-up calibration) → first peek over MCP; then its idle CPU and memory (daemon
 * and every child: the rpicam stand-in, the serial-cable relay) over a quiet minute; and how fast the
 * CLI answers `--help`. Usage: `npm run build && node dist/bench/appliance.js [idleSeconds]`.
 */
const idleSeconds = Math.max(10, Number(process.argv[2] ?? 60));
const root = projectRoot();
const bin = join(root, "bin", "piclaw.js");
const TICKS_PER_S = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

function descendants(pid: number): number[] {
  const all: number[] = [pid];
  for (let i = 0; i < all.length; i++) {
    const out = spawnSync("pgrep", ["-P", String(all[i])], { encoding: "utf8" }).stdout;
    for (const line of out.split("\n")) if (line) all.push(Number(line));
  }
  return all;
}

/** CPU ticks (user + system) and RSS (kB) of a process, or null when it is gone. */
function sample(pid: number): { ticks: number; rssKb: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return { ticks, rssKb: Number(rss ?? 0) };
  } catch {
    return null;
  }
}

function treeSample(pid: number): { ticks: number; rssKb: number; processes: number } {
  let ticks = 0;
  let rssKb = 0;
  let processes = 0;
  for (const p of descendants(pid)) {
    const s = sample(p);
    if (!s) continue;
    ticks += s.ticks;
    rssKb += s.rssKb;
    processes++;
  }
  return { ticks, rssKb, processes };
}

async function main(): Promise<void> {
  const stateDir = mkdtempSync(join(tmpdir(), "piclaw-bench-appliance-"));
  const configPath = join(stateDir, "config.yaml");
  writeFileSync(configPath, `stateDir: ${stateDir}\nserver: { port: 0 }\nlog: { format: json }\n`);
  const t0 = performance.now();
  const child = spawn(process.execPath, [bin, "start", "--config", configPath], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, PICLAW_CONFIG: "" },
  });
  let out = "";
  child.stdout.on("data", (c: Buffer) => {
    out += c.toString("utf8");
  });
  const until = async <T>(read: () => T | undefined, what: string, ms = 300_000): Promise<T> => {
    for (const end = performance.now() + ms; performance.now() < end; ) {
      const v = read();
      if (v !== undefined) return v;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  try {
    const url = await until(() => /"msg":"serving","url":"([^"]+)"/.exec(out)?.[1], "serving");
    const servingS = (performance.now() - t0) / 1000;
    await until(() => (out.includes('"msg":"ready"') ? true : undefined), "ready");
    const readyS = (performance.now() - t0) / 1000;
    const client = new Client({ name: "piclaw-bench", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
    const p0 = performance.now();
    const peek = await client.callTool({ name: "peek", arguments: {} });
    const peekS = (performance.now() - p0) / 1000;
    const firstPeekS = (performance.now() - t0) / 1000;
    await client.close();
    if (peek.isError) throw new Error(`peek failed: ${JSON.stringify(peek.content)}`);
    // A quiet minute: nothing asks anything; the camera streams and the runtime ticks.
    await new Promise((r) => setTimeout(r, 5000));
    const a = treeSample(child.pid ?? 0);
    const s0 = performance.now();
    await new Promise((r) => setTimeout(r, idleSeconds * 1000));
    const b = treeSample(child.pid ?? 0);
    const cpu = (b.ticks - a.ticks) / TICKS_PER_S / ((performance.now() - s0) / 1000);
    const help: number[] = [];
    for (let i = 0; i < 5; i++) {
      const h0 = performance.now();
      spawnSync(process.execPath, [bin, "--help"], { stdio: "ignore" });
      help.push(performance.now() - h0);
    }
    help.sort((x, y) => x - y);
    const line = (label: string, value: string) => process.stdout.write(`  ${label.padEnd(44)} ${value}\n`);
    process.stdout.write("simulated appliance (piclaw start, fresh state dir):\n");
    line("start → serving (MCP answers)", `${servingS.toFixed(1)} s`);
    line("start → ready (after start-up calibration)", `${readyS.toFixed(1)} s`);
    line("start → first peek answered", `${firstPeekS.toFixed(1)} s (the peek itself ${peekS.toFixed(2)} s)`);
    line(`idle CPU over ${idleSeconds} s (daemon + children)`, `${(cpu * 100).toFixed(1)}% of one core`);
    line("idle RSS (daemon + children)", `${Math.round(b.rssKb / 1024)} MB in ${b.processes} processes`);
    line("piclaw --help (wall, median of 5)", `${((help[2] ?? 0) / 1000).toFixed(2)} s`);
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    rmSync(stateDir, { recursive: true, force: true });
  }
}

await main();
