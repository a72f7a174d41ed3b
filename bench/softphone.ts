import { parseConfig } from "../src/app/config/load.js";
import { realCameraFrame } from "../src/lab/real/camera.js";
import { softphonePng, softphoneVariants } from "../src/lab/synth/softphone.js";
import type { FracBox } from "../src/shared/box.js";
import { FontBook } from "../src/shared/fonts.js";
import { IPHONE_61 } from "../src/shared/phone-model.js";
import { createVision } from "../src/vision/create.js";
import { decodeRgb, stretchContrast, warpToScreen } from "../src/vision/rectify.js";

/**
 * Synthetic softphone dial pads (`src/lab/synth/softphone.ts`) read by today's pipeline, as screenshots
 * and filmed by the simulated camera (rectified to 585 px as `fromCamera` does): per variant, keys right
 * (a `key` row of the key's character whose centre is on the key), the `+` under `0` and the letter lines
 * found. `node dist/bench/softphone.js [--camera]`.
 */

const camera = process.argv.includes("--camera");
const vision = await createVision(parseConfig({}), {
  fonts: new FontBook(),
  clock: { now: () => performance.now() },
  screenPx: IPHONE_61.screenPx,
});
const inside = (b: FracBox, r: FracBox): boolean => {
  const x = (r[0] + r[2]) / 2;
  const y = (r[1] + r[3]) / 2;
  return x >= b[0] && x <= b[2] && y >= b[1] && y <= b[3];
};
let keysRight = 0;
let keysAll = 0;
let plusFound = 0;
let plusAll = 0;
const lines: string[] = [];
for (const [i, o] of softphoneVariants().entries()) {
  const s = await softphonePng(o);
  let view: Awaited<ReturnType<typeof vision.pipeline.fromScreenshot>>;
  if (camera) {
    const shot = await realCameraFrame(s.png, { seed: 7 + i });
    const w = 585;
    const h = Math.round((w * shot.screenPx.height) / shot.screenPx.width);
    const screen = stretchContrast(warpToScreen(await decodeRgb(shot.frame), shot.screenToCamera, w, h));
    view = await vision.pipeline.fromScreen(screen);
  } else view = await vision.pipeline.fromScreenshot(s.png);
  const wrong = s.keys.filter(
    (k) =>
      !view.entries.some((r) => r.kind === "key" && r.label.toLowerCase() === k.char && inside(k.box, r.box)),
  );
  keysRight += s.keys.length - wrong.length;
  keysAll += s.keys.length;
  const plus = s.text.find((t) => t.text === "+");
  const plusOk = plus ? view.entries.some((r) => r.label === "+" && inside(plus.box, r.box)) : undefined;
  if (plus) plusAll++;
  if (plusOk) plusFound++;
  lines.push(
    `| ${o.shape} ${o.dark ? "dark" : "light"} ${o.letters ? "letters" : "plain"} gap ${o.callGap} | ${s.keys.length - wrong.length}/${s.keys.length} | ${wrong.map((k) => k.char).join(" ")} | ${plusOk === undefined ? "—" : plusOk ? "yes" : "no"} |`,
  );
}
await vision.close();
process.stdout.write(
  [
    `softphone pads, ${camera ? "camera" : "screenshot"}`,
    "| variant | keys right | keys missed | + under 0 |",
    "|---|---|---|---|",
    ...lines,
    `keys right ${keysRight}/${keysAll}; + under 0 ${plusFound}/${plusAll}`,
    "",
  ].join("\n"),
);
