import { parseArgs } from "node:util";
import { writeTransitSet } from "../src/lab/synth/transit-set.js";
import { FontBook } from "../src/shared/fonts.js";

/**
 * Writes the synthetic transit-arrival set (src/lab/synth/transit-screens.ts) in the real-screen format,
 * to score with real-screens.ts: `node dist/bench/transit-synth.js --out DIR [--seed 1] [--count 40]`,
 * then `node dist/bench/real-screens.js DIR --misses --peek 0 [--camera]`.
 */
const { values } = parseArgs({
  options: {
    out: { type: "string" },
    seed: { type: "string", default: "1" },
    count: { type: "string", default: "40" },
    width: { type: "string", default: "1170" },
  },
});
if (!values.out) throw new Error("--out DIR is required");
await writeTransitSet(
  values.out,
  Number(values.seed),
  Number(values.count),
  new FontBook(),
  Number(values.width),
);
process.stdout.write(`${values.out}: ${values.count} transit screens\n`);
