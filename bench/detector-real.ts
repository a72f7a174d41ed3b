import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";
import {
  emptyScore,
  missedElements,
  type RealDetectorScore,
  scoreScreen,
} from "../src/lab/real/detector-recall.js";
import { type RealScreen, realScreenSchema } from "../src/lab/real/labels.js";
import type { RgbImage } from "../src/shared/image.js";
import { BUILTIN_DETECTOR_MODEL } from "../src/vision/detector/config.js";
import { OnnxDetector } from "../src/vision/detector/onnx-detector.js";

/**
 * The UI detector on labelled real iPhone screenshots (`datasets/real-iphone/`, schema
 * `src/lab/real/labels.ts`): recall per element kind (a detection whose centre lies inside the element;
 * "own" = such a detection that also overlaps it at IoU ≥ 0.3), recall of text lines, and precision
 * (detections centred on some labelled element or text line; status-bar detections left out), one
 * column per model so an old and a new model can be compared on the same screens.
 *
 *   node dist/bench/detector-real.js [--model A.onnx --model B.onnx] [--json OUT.json] [--misses] [DATASET_DIR…]
 *
 * DATASET_DIR holds `images/` and `labels/` (default `datasets/real-iphone`); the default model is the
 * committed one; `--misses` lists every element each model did not find. Prints; never fails on numbers.
 */

interface Screen {
  label: RealScreen;
  image: RgbImage;
}

async function loadScreens(dirs: readonly string[]): Promise<Screen[]> {
  const out: Screen[] = [];
  for (const dir of dirs) {
    const labels = readdirSync(join(dir, "labels")).filter((f) => f.endsWith(".json"));
    for (const file of labels.sort()) {
      const label = realScreenSchema.parse(JSON.parse(readFileSync(join(dir, "labels", file), "utf8")));
      const { data, info } = await sharp(join(dir, "images", label.image))
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      out.push({ label, image: { width: info.width, height: info.height, channels: 3, data } });
    }
  }
  return out;
}

async function scoreModel(
  modelPath: string,
  screens: readonly Screen[],
  printMisses: boolean,
): Promise<RealDetectorScore> {
  const det = await OnnxDetector.create({ modelPath });
  const score = emptyScore();
  try {
    for (const s of screens) {
      const found = await det.detect(s.image);
      scoreScreen(score, s.label, found);
      if (printMisses) for (const m of missedElements(s.label, found)) process.stdout.write(`  miss ${m}\n`);
    }
  } finally {
    await det.close();
  }
  return score;
}

const pct = (n: number, d: number): string => (d ? `${((100 * n) / d).toFixed(0)}%` : "–");

function table(names: readonly string[], scores: readonly RealDetectorScore[]): string[] {
  const first = scores[0];
  if (!first) return [];
  const kinds = [...first.kinds.keys()].sort((a, b) =>
    a === "text" ? 1 : b === "text" ? -1 : a.localeCompare(b),
  );
  const head = `| kind | n | ${names.map((n) => `${n} found / own`).join(" | ")} |`;
  const lines = [head, `|---|---|${names.map(() => "---|").join("")}`];
  for (const k of kinds) {
    const n = first.kinds.get(k)?.total ?? 0;
    const cells = scores.map((s) => {
      const c = s.kinds.get(k);
      return c ? `${pct(c.found, c.total)} / ${pct(c.own, c.total)}` : "–";
    });
    lines.push(`| ${k} | ${n} | ${cells.join(" | ")} |`);
  }
  const elements = (s: RealDetectorScore): [number, number, number] => {
    let t = 0;
    let f = 0;
    let o = 0;
    for (const [k, c] of s.kinds)
      if (!k.includes(" ") && k !== "text") {
        t += c.total;
        f += c.found;
        o += c.own;
      }
    return [t, f, o];
  };
  const all = scores.map(elements);
  lines.push(
    `| all elements | ${all[0]?.[0] ?? 0} | ${all.map(([t, f, o]) => `${pct(f, t)} / ${pct(o, t)}`).join(" | ")} |`,
  );
  const prec = scores.map((s) => {
    const parts = [...s.detections].map(([cls, c]) => `${cls} ${pct(c.onTarget, c.total)} of ${c.total}`);
    let on = 0;
    let total = 0;
    for (const c of s.detections.values()) {
      on += c.onTarget;
      total += c.total;
    }
    return `${pct(on, total)} of ${total} (${parts.join(", ")})`;
  });
  lines.push(`| precision (detections on target) | | ${prec.join(" | ")} |`);
  return lines;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      model: { type: "string", multiple: true },
      json: { type: "string" },
      misses: { type: "boolean", default: false },
    },
  });
  const dirs = positionals.length ? positionals : ["datasets/real-iphone"];
  const models = values.model?.length ? values.model : [BUILTIN_DETECTOR_MODEL];
  const screens = await loadScreens(dirs);
  const scores: RealDetectorScore[] = [];
  for (const m of models) {
    if (values.misses) process.stdout.write(`elements ${basename(m)} missed:\n`);
    scores.push(await scoreModel(m, screens, values.misses));
  }
  const names = models.map((m, i) => `${i + 1}:${basename(m)}`);
  process.stdout.write(`detector on ${screens.length} real screens from ${dirs.join(", ")}\n`);
  for (const [i, m] of models.entries()) process.stdout.write(`  model ${i + 1}: ${m}\n`);
  process.stdout.write(`${table(names, scores).join("\n")}\n`);
  if (values.json) {
    const plain = scores.map((s, i) => ({
      model: models[i],
      kinds: Object.fromEntries(s.kinds),
      detections: Object.fromEntries(s.detections),
    }));
    writeFileSync(
      values.json,
      `${JSON.stringify({ screens: screens.length, dirs, scores: plain }, null, 1)}\n`,
    );
  }
}

await main();
