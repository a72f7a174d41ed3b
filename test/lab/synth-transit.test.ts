import { describe, expect, it } from "vitest";
import { realScreenSchema } from "../../src/lab/real/labels.js";
import { badgeInk } from "../../src/lab/synth/transit-parts.js";
import { transitSample } from "../../src/lab/synth/transit-set.js";
import { FontBook } from "../../src/shared/fonts.js";

const fonts = new FontBook();

describe("synthetic transit-arrival screens", () => {
  it("writes labels in the real-screen format: badges, predictions, stars, rows, maps left unlabelled", async () => {
    const labels = Array.from({ length: 24 }, (_, i) => transitSample(1, i, fonts, 390).label);
    for (const l of labels) expect(realScreenSchema.safeParse(l).success, l.image).toBe(true);
    const texts = labels.flatMap((l) => l.text.map((t) => t.text));
    const elements = labels.flatMap((l) => l.elements);
    // Route badges (one-character bullets and longer names), predictions with their unit, clock times.
    expect(texts.some((t) => /^[A-Z0-9]$/.test(t))).toBe(true);
    expect(texts.some((t) => /^\d+ (min|分钟)$/.test(t))).toBe(true);
    expect(texts.some((t) => /^\d{1,2}:\d\d$/.test(t))).toBe(true);
    expect(elements.filter((e) => e.kind === "button" && e.label === "favorite").length).toBeGreaterThan(5);
    expect(elements.some((e) => e.kind === "row")).toBe(true);
    expect(labels.some((l) => l.unlabelled.length > 0)).toBe(true);
    expect(new Set(labels.map((l) => l.lang))).toEqual(new Set(["en", "zh"]));
    expect(new Set(labels.map((l) => l.theme))).toEqual(new Set(["light", "dark"]));
    // Every text line lies on the screen, below the status bar.
    for (const l of labels)
      for (const t of l.text) expect(t.box[1], t.text).toBeGreaterThanOrEqual(l.statusBar?.[3] ?? 0);
    const png = await transitSample(1, 0, fonts, 390).render();
    expect(png.subarray(1, 4).toString()).toBe("PNG");
  });

  it("inks a badge black on a light line colour and white on a dark one (WCAG contrast)", () => {
    expect(badgeInk("#fccc0a")).toBe("#000000"); // MTA N/Q/R/W yellow
    expect(badgeInk("#ffd300")).toBe("#000000"); // TfL Circle
    expect(badgeInk("#0039a6")).toBe("#ffffff"); // MTA A/C/E blue
    expect(badgeInk("#ee352e")).toBe("#ffffff"); // MTA 1/2/3 red
  });
});
