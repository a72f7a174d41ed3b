import { parseArgs } from "node:util";
import { FontBook } from "../../shared/fonts.js";
import { writeDataset } from "./dataset.js";

/**
 * Writes a synthetic detector data set. Used by models/icon-detector/build.sh:
 * `node dist/src/lab/synth/cli.js --out DIR --seed 1 --start 0 --count 2000 [--width 576] [--resume]`
 * (`--resume` keeps PNGs already written by an interrupted run and only recomputes their labels).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: "string" },
      seed: { type: "string", default: "1" },
      start: { type: "string", default: "0" },
      count: { type: "string", default: "100" },
      width: { type: "string", default: "576" },
      resume: { type: "boolean", default: false },
    },
  });
  if (!values.out) throw new Error("--out DIR is required");
  const count = Number(values.count);
  const t0 = Date.now();
  const labels = await writeDataset({
    outDir: values.out,
    seed: Number(values.seed),
    start: Number(values.start),
    count,
    width: Number(values.width),
    fonts: new FontBook(),
    resume: values.resume,
    onProgress: (done) => {
      if (done % 200 === 0)
        process.stderr.write(`  ${done}/${count} screens (${((Date.now() - t0) / 1000).toFixed(0)} s)\n`);
    },
  });
  process.stdout.write(`${labels}: ${count} screens in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
}

await main();
