import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseConfig } from "../src/app/config/load.js";
import { DAEMON_MALLOC_ENV, DAEMON_NODE_FLAGS } from "../src/app/node-flags.js";
import { type ScreenScore, scoreScreen, scoreTable } from "../src/lab/eval/evaluate.js";
import { HARSH_OPTICS } from "../src/lab/eval/harsh-optics.js";
import { captureScenario, evalScenarios, withVariant } from "../src/lab/eval/scenarios.js";
import { FontBook } from "../src/shared/fonts.js";
import { IPHONE_61 } from "../src/shared/phone-model.js";
import { createVision } from "../src/vision/create.js";

/**
 * Vision bench: (1) the peek path time per frame (median of ≥20) and peak RSS, measured in a child
 * process that holds only the vision models; (2) accuracy on generated screens (recall at IoU ≥ 0.5,
 * CER) as a table by locale, camera variant and screen; (3) the same screens and poses again under harsh
 * optics (`harsh-optics.ts`), a table of their own. Never fails on numbers.
 * Usage: `node dist/bench/vision.js [screens]` (default 50).
 */
export async function visionBench(screens = 50): Promise<string[]> {
  const fonts = new FontBook();
  const out: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), "piclaw-peek-"));
  try {
    const captures = [];
    for (const s of evalScenarios(screens)) captures.push(await captureScenario(s, fonts));
    captures.slice(0, 25).forEach((c, i) => {
      const name = String(i).padStart(3, "0");
      writeFileSync(join(dir, `${name}.jpg`), c.frame);
      writeFileSync(join(dir, `${name}.json`), JSON.stringify({ screenToCamera: c.screenToCamera }));
    });
    const script = new URL("./vision-peek.js", import.meta.url).pathname;
    // glibc's default of 8 malloc arenas per core fragments under ONNX Runtime's threads; the systemd
    // unit sets MALLOC_ARENA_MAX=2 and MALLOC_MMAP_THRESHOLD_=4194304 for the appliance, so the bench
    // measures the same, and starts node with the daemon's flags (`DAEMON_NODE_FLAGS`).
    const env = { ...process.env, ...DAEMON_MALLOC_ENV };
    const peek = JSON.parse(
      execFileSync(process.execPath, [...DAEMON_NODE_FLAGS, script, dir, "1"], { encoding: "utf8", env }),
    ) as {
      n: number;
      totals: number[];
      medians: Record<string, number>;
      cpuMsMedian: number;
      peakRssMb: number;
    };
    const sorted = [...peek.totals].sort((a, b) => a - b);
    const q = (p: number): number =>
      sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
    out.push(
      `peek path (2304×1296 JPEG → listing + annotated JPEG), n=${peek.n}: median ${q(0.5).toFixed(0)} ms, p10 ${q(0.1).toFixed(0)}, p90 ${q(0.9).toFixed(0)} (goal ≤ 300 ms)`,
      `  stage medians: ${Object.entries(peek.medians)
        .map(([k, v]) => `${k} ${v.toFixed(0)} ms`)
        .join(", ")}; CPU time per peek (all threads) ${peek.cpuMsMedian.toFixed(0)} ms`,
      `  peak RSS of the vision process: ${peek.peakRssMb.toFixed(0)} MB (goal ≤ 300 MB)`,
    );
    const vision = await createVision(parseConfig({}), {
      fonts,
      clock: { now: () => performance.now() },
      screenPx: IPHONE_61.screenPx,
    });
    const scores: ScreenScore[] = [];
    for (const c of captures)
      scores.push(scoreScreen(c, await vision.pipeline.fromCamera(c.frame, c.screenToCamera)));
    out.push(
      `accuracy on ${captures.length} generated camera screens (found = IoU ≥ 0.5 with the truth box):`,
    );
    out.push(scoreTable(scores));
    const harsh: ScreenScore[] = [];
    for (const s of withVariant(evalScenarios(screens), "harsh")) {
      const c = await captureScenario(s, fonts);
      harsh.push(scoreScreen(c, await vision.pipeline.fromCamera(c.frame, c.screenToCamera)));
    }
    await vision.close();
    out.push(
      `harsh optics, the same ${harsh.length} screens and poses (camera ${HARSH_OPTICS.extraHeightMm} mm higher, lens blur ${HARSH_OPTICS.baseBlurPx} px, autofocus error ${HARSH_OPTICS.autofocusErrorDioptres} D; goal recall ≥ 90%):`,
    );
    out.push(
      scoreTable(harsh)
        .split("\n")
        .filter((l) => !l.startsWith("| variant="))
        .join("\n"),
    );
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await visionBench(Number(process.argv[2] ?? 50))) process.stdout.write(`${line}\n`);
}
