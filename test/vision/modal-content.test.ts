import { describe, expect, it } from "vitest";
import { findModal } from "../../src/vision/modal.js";
import type { Candidate } from "../../src/vision/row.js";
import { dropSpuriousRows } from "../../src/vision/spurious.js";
import { loadRealImage, realLabel } from "./real-set.js";

/**
 * The location prompt (iOS 14+) draws a map between the alert's message and its buttons. The card's top
 * is over its title, not at the map's edge: the map's place names and the boxes around them are content
 * of the card, not rows of the dimmed screen behind it.
 */
const labelRows = (name: string): Candidate[] =>
  realLabel(name).text.map((t): Candidate => ({ kind: "text", label: t.text, box: t.box, conf: 0.9 }));

describe("findModal over an alert with a map in it", () => {
  it("takes the card up to its title, past the map", async () => {
    for (const [name, titleTop] of [
      ["ra-mauidocs-location-alert.png", 0.279],
      ["ra-rndocs-location-alert.png", 0.175],
    ] as const) {
      const modal = findModal(await loadRealImage(name), labelRows(name));
      expect(modal, name).toBeDefined();
      const top = modal?.card[1] ?? 1;
      expect(top, name).toBeLessThan(titleTop);
      expect(top, name).toBeGreaterThan(titleTop - 0.06); // the card's fill ends ~20 pt over the title
    }
  });

  it("drops the map's place names and the box around them, keeps the alert's text and the screen's", async () => {
    const name = "ra-mauidocs-location-alert.png";
    const image = await loadRealImage(name);
    const map: Candidate[] = [
      { kind: "text", label: "London", box: [0.579, 0.564, 0.71, 0.578], conf: 0.9 },
      { kind: "text", label: "Brussels", box: [0.689, 0.578, 0.83, 0.592], conf: 0.9 },
      { kind: "icon", label: "", box: [0.549, 0.551, 0.875, 0.598], conf: 0.4 },
    ];
    const kept = dropSpuriousRows([...labelRows(name), ...map], image.height / image.width, image);
    for (const m of map) expect(kept, m.label || m.kind).not.toContain(m);
    const labels = kept.map((r) => r.label);
    for (const t of [
      "Allow “WorkingWithMaps” to",
      "Precise: On",
      "Allow Once",
      "Don’t Allow",
      "Show traffic:",
    ])
      expect(labels).toContain(t);
  });

  it("keeps the Precise pill's title at the card's leading inset on a 320 pt screen", async () => {
    // The alert is 270 pt of 320 pt here (0.84 of the width): the pill's title starts ~33 pt in.
    const name = "ra-rndocs-location-alert.png";
    const image = await loadRealImage(name);
    const map: Candidate[] = [
      { kind: "text", label: "London", box: [0.6, 0.565, 0.735, 0.585], conf: 0.9 },
      { kind: "text", label: "Brussels", box: [0.735, 0.59, 0.885, 0.61], conf: 0.9 },
    ];
    const kept = dropSpuriousRows([...labelRows(name), ...map], image.height / image.width, image);
    for (const m of map) expect(kept, m.label).not.toContain(m);
    expect(kept.map((r) => r.label)).toContain("Precise: On");
  });
});
