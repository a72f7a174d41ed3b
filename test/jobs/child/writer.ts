/**
 * A jobs.md writer in its own process, for the concurrency and SIGKILL tests:
 * `writer.ts FILE PREFIX COUNT` creates COUNT jobs `PREFIX-<i>` one after another, and after every
 * third one also finishes and re-upserts an earlier job (so the file is rewritten in several ways).
 * Prints `wrote <n>` after each completed write.
 */
import { JobStore } from "../../../src/jobs/store.js";
import { Logger } from "../../../src/log/logger.js";
import { systemClock } from "../../../src/util/clock.js";

const [file, prefix, countText] = process.argv.slice(2);
if (!file || !prefix || !countText) throw new Error("usage: writer.ts FILE PREFIX COUNT");
const store = new JobStore({
  file,
  clock: systemClock,
  timeZone: "UTC",
  log: Logger.create({ level: "error", format: "json", sink: { write() {} }, now: Date.now }),
  catchUpWindowMinutes: 60,
  lockStaleMs: 30_000,
  lockTimeoutMs: 20_000,
});
let writes = 0;
const wrote = () => process.stdout.write(`wrote ${++writes}\n`);
for (let i = 0; i < Number(countText); i++) {
  await store.create({
    id: `${prefix}-${i}`,
    type: i % 2 === 0 ? "periodic" : "one-time",
    schedule: `${i % 60} ${i % 24} * * *`,
    description: `job ${i} of ${prefix}`,
    context: `context line one of ${i}\ncontext line two`,
  });
  wrote();
  if (i % 3 === 2) {
    await store.finish(`${prefix}-${i - 1}`, `result of ${i - 1}`);
    wrote();
  }
}
