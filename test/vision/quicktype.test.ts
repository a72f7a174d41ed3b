import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { realScreenSchema } from "../../src/lab/real/labels.js";
import type { FracBox } from "../../src/shared/box.js";
import { applyQuickType } from "../../src/vision/quicktype.js";
import { decodeRgb } from "../../src/vision/rectify.js";
import type { Candidate } from "../../src/vision/row.js";

const DATASET = join(import.meta.dirname, "..", "..", "datasets", "real-iphone");

/**
 * A development-set keyboard screen with the rows the pipeline has before this pass: its letter keys as
 * key rows, and the text rows `read` (label texts; the others the text detector missed).
 */
async function keyboardScreen(id: string, read: readonly string[]) {
  const label = realScreenSchema.parse(
    JSON.parse(readFileSync(join(DATASET, "labels", `${id}.json`), "utf8")),
  );
  const image = await decodeRgb(readFileSync(join(DATASET, "images", label.image)));
  const keys = label.elements
    .filter((e) => e.kind === "key" && /^\p{L}$/u.test(e.char ?? ""))
    .map((e): Candidate => ({ kind: "key", label: e.char ?? "", box: e.box, conf: 0.9 }));
  const texts = label.text
    .filter((t) => read.includes(t.text))
    .map((t): Candidate => ({ kind: "text", label: t.text, box: t.box, conf: 0.95 }));
  return { label, image, rows: [...keys, ...texts] };
}

const inside = (b: FracBox, box: FracBox): boolean => {
  const [x, y] = [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];
  return x > box[0] && x < box[2] && y > box[1] && y < box[3];
};

describe("applyQuickType: the suggestion cells over the keyboard", () => {
  it("lists each suggestion as a button on its cell, a lone I the text detector missed included", async () => {
    // rb-jsqmessages-keyboard (iOS 8): `I | The | I'm`; the 2-px-wide `I` is below the text detector's
    // 320 px map, so only `The` and `I'm` are read.
    const { label, image, rows } = await keyboardScreen("rb-jsqmessages-keyboard", ["The", "I'm"]);
    const out = applyQuickType(image, rows);
    const cells = label.elements.filter((e) => e.kind === "button" && e.box[1] > 0.5);
    expect(cells.map((c) => c.label)).toEqual(["I", "The", "I'm"]);
    for (const cell of cells) {
      const on = out.filter((r) => r.kind !== "key" && inside(r.box, cell.box));
      expect(
        on.map((r) => `${r.kind} ${r.label}`),
        cell.label,
      ).toEqual([`button ${cell.label}`]);
    }
  });

  it("lists a cell with a word in quotes and leaves an empty cell without a row", async () => {
    // ra-ntfy-add-to-home (iOS 16, darker separators): `“ntfy” | ntfyte | (empty)`.
    const { image, rows } = await keyboardScreen("ra-ntfy-add-to-home", ["“ntfy”", "ntfyte"]);
    const out = applyQuickType(image, rows).filter((r) => r.kind !== "key");
    expect(out.map((r) => `${r.kind} ${r.label}`)).toEqual(["button “ntfy”", "button ntfyte"]);
    expect(out[1]?.box[0]).toBeCloseTo(1 / 3, 2);
  });

  it("finds no bar where there are no separators over the keys", async () => {
    // rc-icecubes-explore-search (iOS 18): a search field right above the keys, no QuickType bar.
    const { label, image, rows } = await keyboardScreen("rc-icecubes-explore-search", [
      "Search users, posts and tags",
    ]);
    expect(label.elements.some((e) => e.kind === "key")).toBe(true);
    expect(applyQuickType(image, rows)).toEqual(rows);
  });
});
