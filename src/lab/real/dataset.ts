import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type RealScreen, realScreenSchema } from "./labels.js";

/**
 * Reads labelled real screens from one or more dataset directories (each `images/` + `labels/`, as
 * `datasets/real-iphone/`), so an evaluation can run over several labellers' copies before they merge.
 * A label still marked as a draft (`notes` starting with "DRAFT", what `prelabel` writes) is today's
 * pipeline output, not truth: it is skipped, like a label that fails the schema, a label whose image is
 * missing, or a second label for an image id already read from an earlier directory.
 */

export interface RealSample {
  label: RealScreen;
  labelPath: string;
  imagePath: string;
}

export interface RealSet {
  samples: RealSample[];
  /** Label files left out, each with the reason. */
  skipped: { path: string; reason: string }[];
}

export function loadRealSet(dirs: readonly string[]): RealSet {
  const samples: RealSample[] = [];
  const skipped: RealSet["skipped"] = [];
  const seen = new Set<string>();
  for (const dir of dirs) {
    const labelsDir = join(dir, "labels");
    if (!existsSync(labelsDir)) {
      skipped.push({ path: labelsDir, reason: "no labels directory" });
      continue;
    }
    for (const file of readdirSync(labelsDir)
      .filter((f) => f.endsWith(".json"))
      .sort()) {
      const labelPath = join(labelsDir, file);
      const skip = (reason: string): void => {
        skipped.push({ path: labelPath, reason });
      };
      let doc: unknown;
      try {
        doc = JSON.parse(readFileSync(labelPath, "utf8"));
      } catch (err) {
        skip(`not JSON: ${(err as Error).message}`);
        continue;
      }
      const parsed = realScreenSchema.safeParse(doc);
      if (!parsed.success) {
        skip(`schema: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
        continue;
      }
      const label = parsed.data;
      const imagePath = join(dir, "images", label.image);
      if (/^DRAFT/i.test(label.notes)) skip("still a draft");
      else if (!existsSync(imagePath)) skip(`image ${label.image} missing`);
      else if (seen.has(label.image)) skip(`image ${label.image} already read from an earlier directory`);
      else {
        seen.add(label.image);
        samples.push({ label, labelPath, imagePath });
      }
    }
  }
  return { samples, skipped };
}
