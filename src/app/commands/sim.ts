import { writeFileSync } from "node:fs";
import { processLogger } from "../../log/logger.js";
import { SimRig } from "../../sim/rig.js";
import { systemClock } from "../../util/clock.js";
import { PiclawError } from "../../util/errors.js";
import type { LoadedConfig } from "../config/load.js";

function positiveInt(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 16 || n > 8192)
    throw new PiclawError("USAGE", `--${name} must be an integer 16–8192`);
  return n;
}

/** `piclaw sim snapshot`: one simulated camera frame and/or the phone's own screen. */
export async function simSnapshot(
  loaded: LoadedConfig,
  values: {
    out?: string | undefined;
    screen?: string | undefined;
    width?: string | undefined;
    height?: string | undefined;
  },
): Promise<number> {
  const log = processLogger("warn", "auto", process.env);
  const rig = SimRig.fromConfig(loaded.config, {
    clock: systemClock,
    log: log.child("sim"),
    cwd: process.cwd(),
  });
  await rig.start();
  try {
    const out = values.out ?? (values.screen ? undefined : "frame.jpg");
    if (values.screen) {
      writeFileSync(values.screen, await rig.screenshot());
      process.stdout.write(`screen: ${values.screen}\n`);
    }
    if (out) {
      const cam = loaded.config.sim.camera;
      const width = positiveInt("width", values.width) ?? cam.width;
      const height = positiveInt("height", values.height) ?? cam.height;
      writeFileSync(out, await rig.captureFrame({ width, height }));
      process.stdout.write(`frame: ${out} (${width}×${height})\n`);
    }
  } finally {
    await rig.stop();
  }
  return 0;
}
