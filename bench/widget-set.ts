import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { RealScreen } from "../src/lab/real/labels.js";
import { renderWidgetScreen, widgetScreen } from "../src/lab/synth/widget-screens.js";
import type { FracBox } from "../src/shared/box.js";
import { FontBook } from "../src/shared/fonts.js";
import { encodePng } from "../src/sim/phone/render.js";
import { seededRandom } from "../src/util/random.js";

/**
 * Writes synthetic widget home screens (`src/lab/synth/widget-screens.ts`) as a real-screen data set
 * (`images/` + `labels/` in `src/lab/real/labels.ts`'s format), so `real-screens.js` scores them exactly
 * as it scores the real sets, screenshots or filmed (`--camera`):
 * `node dist/bench/widget-set.js --out DIR [--count 40] [--seed 1]`.
 * Labels: every drawn text line below the status bar; each home-screen icon an `app` (named by the line
 * under it, the dock's unnamed); each widget an `other` element named by its caption, the page dots one.
 */
const STATUS_BOTTOM = 50 / 844;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: "string" },
      count: { type: "string", default: "40" },
      seed: { type: "string", default: "1" },
    },
  });
  if (!values.out) throw new Error("--out DIR is required");
  mkdirSync(join(values.out, "images"), { recursive: true });
  mkdirSync(join(values.out, "labels"), { recursive: true });
  const fonts = new FontBook();
  for (let i = 0; i < Number(values.count); i++) {
    const rng = seededRandom(Number(values.seed) * 100_003 + i);
    const { scene, lang, dark } = widgetScreen(rng, fonts);
    const name = `sw-${String(i).padStart(3, "0")}-${lang}-${dark ? "dark" : "light"}`;
    const r = (v: number): number => Math.round(v * 10_000) / 10_000;
    const box = (b: FracBox): FracBox => [r(b[0]), r(b[1]), r(b[2]), r(b[3])];
    const truth = scene.truth();
    const label: RealScreen = {
      image: `${name}.png`,
      width: 1170,
      height: 2532,
      lang,
      theme: dark ? "dark" : "light",
      screen: "home",
      statusBar: [0, 0.015, 1, r(STATUS_BOTTOM)],
      text: truth
        .filter((e) => e.kind === "text" && e.box[1] > STATUS_BOTTOM)
        .map((e) => ({ text: e.label, box: box(e.box) })),
      elements: truth
        .filter((e) => /^w\.(app|dock|widget|dots)/.test(e.id))
        .map((e) => ({
          kind: /^w\.(widget|dots)/.test(e.id) ? ("other" as const) : ("app" as const),
          label: e.label,
          iconOnly: !e.id.startsWith("w.widget"),
          box: box(e.box),
        })),
      notes: "synthetic widget home screen (bench/widget-set.ts)",
      unlabelled: [],
    };
    writeFileSync(join(values.out, "images", label.image), await encodePng(await renderWidgetScreen(scene)));
    writeFileSync(join(values.out, "labels", `${name}.json`), `${JSON.stringify(label, null, 1)}\n`);
  }
  process.stdout.write(`${values.count} screens in ${values.out}\n`);
}

await main();
