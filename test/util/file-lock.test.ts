import { spawnSync } from "node:child_process";
import { existsSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { withFileLock } from "../../src/util/file-lock.js";
import { rejection } from "../helpers/errors.js";
import { tempJobsFile } from "../jobs/helpers.js";

const options = { staleMs: 30_000, timeoutMs: 300 };

/** A pid that certainly does not run any more: a child that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(child.stdout.toString());
}

describe("withFileLock", () => {
  it("serialises holders and removes the lock file afterwards, also when the body throws", async () => {
    const lock = `${tempJobsFile()}.lock`;
    const order: string[] = [];
    await Promise.all(
      ["a", "b", "c"].map((name) =>
        withFileLock(lock, { staleMs: 30_000, timeoutMs: 5_000 }, () => {
          order.push(`${name}-in`);
          expect(existsSync(lock)).toBe(true);
          order.push(`${name}-out`);
        }),
      ),
    );
    expect(order.join(" ")).toMatch(/^(\w)-in \1-out (\w)-in \2-out (\w)-in \3-out$/);
    await expect(
      withFileLock(lock, options, () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(existsSync(lock)).toBe(false);
  });

  it("takes over a lock whose holder process is gone", async () => {
    const lock = `${tempJobsFile()}.lock`;
    writeFileSync(lock, `${deadPid()}\n${hostname()}\ndeadbeef\n`);
    expect(await withFileLock(lock, options, () => 42)).toBe(42);
    expect(existsSync(lock)).toBe(false);
  });

  it("waits for a live holder and times out with JOBS_LOCK_TIMEOUT; an old lock is stale even if its pid lives", async () => {
    const lock = `${tempJobsFile()}.lock`;
    writeFileSync(lock, `${process.pid}\n${hostname()}\nlive\n`);
    expect((await rejection(withFileLock(lock, options, () => 1))).code).toBe("JOBS_LOCK_TIMEOUT");
    expect(existsSync(lock)).toBe(true); // not ours: left alone
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(lock, old, old);
    expect(await withFileLock(lock, options, () => 2)).toBe(2);
  });
});
