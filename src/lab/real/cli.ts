import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import sharp from "sharp";
import { FontBook } from "../../shared/fonts.js";
import { IPHONE_61 } from "../../shared/phone-model.js";
import { visionConfigSchema } from "../../vision/config.js";
import { createVision } from "../../vision/create.js";
import { type RealScreen, realScreenSchema } from "./labels.js";
import { renderOverlay } from "./overlay.js";

/**
 * Labelling helpers for `datasets/real-iphone/`:
 *   node dist/src/lab/real/cli.js prelabel OUT_DIR IMAGE…   draft labels from today's pipeline (to correct by eye)
 *   node dist/src/lab/real/cli.js render LABEL.json OUT.png [top bottom] [width]   overlay for checking
 *   node dist/src/lab/real/cli.js check LABEL.json…         schema-validate label files
 */
const [cmd, ...args] = process.argv.slice(2);
const imagesDir = (labelPath: string) => join(labelPath, "..", "..", "images");

if (cmd === "prelabel") {
  const [out, ...images] = args;
  if (!out || images.length === 0) throw new Error("usage: prelabel OUT_DIR IMAGE…");
  const vision = await createVision(
    { vision: visionConfigSchema.parse({}) },
    {
      fonts: new FontBook(),
      clock: { now: () => performance.now() },
      screenPx: IPHONE_61.screenPx,
    },
  );
  for (const img of images) {
    const meta = await sharp(img).metadata();
    const view = await vision.pipeline.fromScreenshot(readFileSync(img));
    const draft: RealScreen = {
      image: basename(img),
      width: meta.width ?? 0,
      height: meta.height ?? 0,
      lang: "en",
      theme: "light",
      screen: "app",
      statusBar: null,
      text: view.entries.filter((e) => e.kind === "text").map((e) => ({ text: e.label, box: e.box })),
      elements: view.entries
        .filter((e) => e.kind !== "text")
        .map((e) => ({ kind: "other" as const, label: "", iconOnly: true, box: e.box })),
      notes: "DRAFT from prelabel: correct every field by eye",
      unlabelled: [],
    };
    const stem = basename(img).replace(/\.[^.]+$/, "");
    writeFileSync(join(out, `${stem}.json`), `${JSON.stringify(draft, null, 1)}\n`);
    console.log(`${stem}: ${draft.text.length} text, ${draft.elements.length} elements`);
  }
  await vision.close();
} else if (cmd === "render") {
  const [labelPath, outPng, t, b, w] = args;
  if (!labelPath || !outPng) throw new Error("usage: render LABEL.json OUT.png [top bottom] [width]");
  const label = realScreenSchema.parse(JSON.parse(readFileSync(labelPath, "utf8")));
  const crop: [number, number] | undefined = t && b ? [Number(t), Number(b)] : undefined;
  const png = await renderOverlay(join(imagesDir(labelPath), label.image), label, {
    ...(crop ? { crop } : {}),
    ...(w ? { width: Number(w) } : {}),
  });
  writeFileSync(outPng, png);
} else if (cmd === "check") {
  let bad = 0;
  for (const p of args) {
    const r = realScreenSchema.safeParse(JSON.parse(readFileSync(p, "utf8")));
    if (!r.success) {
      bad++;
      console.log(`${p}: ${r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
    }
  }
  console.log(`${args.length - bad}/${args.length} valid`);
  if (bad) process.exitCode = 1;
} else {
  console.log(
    "usage: cli.js prelabel OUT_DIR IMAGE… | render LABEL.json OUT.png [top bottom] [width] | check LABEL.json…",
  );
}
