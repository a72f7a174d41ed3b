import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { realScreenSchema } from "../../src/lab/real/labels.js";
import type { FracBox } from "../../src/shared/box.js";
import { applyKeyboard } from "../../src/vision/keyboard.js";
import { capsUpperCase } from "../../src/vision/keyboard-case.js";
import { decodeRgb } from "../../src/vision/rectify.js";
import type { Candidate } from "../../src/vision/row.js";

const DATASET = join(import.meta.dirname, "..", "..", "datasets", "real-iphone");

/** A development-set screen: its labelled keys (single letters) and its decoded pixels. */
async function devKeyboard(id: string) {
  const label = realScreenSchema.parse(
    JSON.parse(readFileSync(join(DATASET, "labels", `${id}.json`), "utf8")),
  );
  const image = await decodeRgb(readFileSync(join(DATASET, "images", label.image)));
  const keys = label.elements.filter((e) => e.kind === "key" && /^[a-z]$/i.test(e.label));
  return { label, image, keys };
}

const aspect = (img: { width: number; height: number }) => img.height / img.width;

describe("capsUpperCase", () => {
  it("reads lower-case caps on a lower-case keyboard and capitals on a shifted one", async () => {
    for (const [id, upper] of [
      ["ra-ntfy-add-to-home", false],
      ["rb-universekb-t9-qwerty", false],
      ["rb-jsqmessages-keyboard", true],
      ["rc-icecubes-explore-search", true],
    ] as const) {
      const { image, keys } = await devKeyboard(id);
      const caps = keys.map((k) => ({ letter: k.label.toLowerCase(), box: k.box as FracBox }));
      expect(capsUpperCase(image, caps), id).toBe(upper);
    }
  });

  it("says nothing on caps without glyphs", async () => {
    const { image } = await devKeyboard("ra-ntfy-add-to-home");
    // Boxes on the status bar's blank middle: no glyph, no verdict.
    const blank: FracBox = [0.45, 0.001, 0.55, 0.01];
    const caps = Array.from("acemnbdfhk", (letter) => ({ letter, box: blank }));
    expect(capsUpperCase(image, caps)).toBeNull();
  });
});

describe("applyKeyboard's case", () => {
  it("lists lower-case keys when the pixels show them, even if OCR read the caps as capitals", async () => {
    const { image, keys } = await devKeyboard("ra-ntfy-add-to-home");
    // OCR reads shape-ambiguous caps (`s w x`) and a misread `n` as capitals: a vote says upper case.
    const rows: Candidate[] = keys
      .filter((k) => "swxnm".includes(k.label.toLowerCase()))
      .map((k) => ({ kind: "text", label: k.label.toUpperCase(), box: k.box as FracBox, conf: 0.9 }));
    expect(rows.length).toBeGreaterThanOrEqual(4);
    const listed = applyKeyboard(rows, aspect(image), image)
      .filter((r) => r.kind === "key" && r.label.length === 1)
      .map((r) => r.label);
    expect(listed).toContain("q");
    expect(listed).not.toContain("Q");
    // Without the pixels the OCR's vote stands.
    const blind = applyKeyboard(rows, aspect(image)).filter((r) => r.kind === "key" && r.label === "Q");
    expect(blind).toHaveLength(1);
  });
});
