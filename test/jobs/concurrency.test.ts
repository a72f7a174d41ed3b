import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseJobsFile } from "../../src/jobs/format.js";
import { seededRandom } from "../../src/util/random.js";
import { compileForChild } from "./child/compile.js";
import { jobsRig, tempJobsFile } from "./helpers.js";

const here = dirname(new URL(import.meta.url).pathname);

interface Writer {
  child: ChildProcess;
  /** Completed writes the child has reported. */
  writes: () => number;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** test/jobs/child/writer.ts (compiled by child/compile.ts) in its own node process. */
function startWriter(file: string, prefix: string, count: number): Writer {
  const child = spawn(process.execPath, [writerJs, file, prefix, String(count)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let writes = 0;
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    writes += (chunk.toString("utf8").match(/wrote/g) ?? []).length;
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => child.on("exit", (code, signal) => resolve({ code, signal, stderr })),
  );
  return { child, writes: () => writes, exit };
}

async function until(predicate: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

let writerJs = "";

describe("jobs.md across processes", () => {
  beforeAll(async () => {
    writerJs = await compileForChild(join(here, "child/writer.ts"));
  });
  afterAll(() => rmSync(dirname(dirname(dirname(dirname(writerJs)))), { recursive: true, force: true }));

  it("concurrent writers in separate processes never lose an update", async () => {
    const file = tempJobsFile();
    const writers = ["a", "b", "c"].map((prefix) => startWriter(file, prefix, 15));
    // And this process writes at the same time, through its own store.
    const rig = jobsRig(new Date().toISOString(), { file });
    for (let i = 0; i < 10; i++)
      await rig.store.create({
        id: `main-${i}`,
        type: "periodic",
        schedule: "0 8 * * *",
        description: "d",
        context: "c",
      });
    for (const w of writers) {
      const { code, stderr } = await w.exit;
      expect(code, stderr).toBe(0);
    }
    const parsed = parseJobsFile(readFileSync(file, "utf8"));
    expect(parsed.problems).toEqual([]);
    const ids = parsed.jobs.map((j) => j.id);
    expect(ids).toHaveLength(55);
    for (const prefix of ["a", "b", "c"]) {
      for (let i = 0; i < 15; i++) expect(ids).toContain(`${prefix}-${i}`);
      // Every finish() landed too: `<prefix>-1`, `-4`, … carry their results.
      for (let i = 1; i < 14; i += 3)
        expect(parsed.jobs.find((j) => j.id === `${prefix}-${i}`)?.executionResult).toBe(`result of ${i}`);
    }
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it("SIGKILL during 200 writes leaves a parseable jobs.md every time, and the next writer gets the lock", async () => {
    const random = seededRandom(7);
    for (let round = 0; round < 5; round++) {
      const file = tempJobsFile();
      const writer = startWriter(file, "k", 200);
      await until(() => writer.writes() >= 1, "the writer's first write");
      await new Promise((r) => setTimeout(r, 20 + random.next() * 300));
      writer.child.kill("SIGKILL");
      const { signal } = await writer.exit;
      expect(signal).toBe("SIGKILL");
      const reported = writer.writes();
      const parsed = parseJobsFile(readFileSync(file, "utf8"));
      expect(parsed.problems).toEqual([]);
      // Each create adds one job; finishes add none. The kill may land after a write but before its report.
      const created = parsed.jobs.length;
      expect(created).toBeGreaterThanOrEqual(Math.floor((reported * 3) / 4));
      expect(created).toBeLessThanOrEqual(reported + 1);
      // A lock the killed writer may have left is taken over (its pid is gone): this write succeeds.
      const rig = jobsRig(new Date().toISOString(), { file });
      await rig.store.create({
        id: "after",
        type: "periodic",
        schedule: "0 8 * * *",
        description: "d",
        context: "c",
      });
      expect(parseJobsFile(readFileSync(file, "utf8")).jobs).toHaveLength(created + 1);
      const leftovers = readdirSync(dirname(file)).filter((f) => f.endsWith(".lock"));
      expect(leftovers).toEqual([]);
    }
  });
});
