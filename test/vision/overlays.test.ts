import { describe, expect, it } from "vitest";
import { drawerEdge, findMenuCard } from "../../src/vision/overlays.js";
import type { Candidate } from "../../src/vision/row.js";
import { dropSpuriousRows } from "../../src/vision/spurious.js";
import { loadRealImage, realLabel } from "./real-set.js";

/**
 * Popup menus and side drawers on real screenshots of the development set. The rows are the screen's
 * labelled text lines plus rows taken from today's pipeline output on the same screen.
 */
const text = (label: string, box: Candidate["box"]): Candidate => ({ kind: "text", label, box, conf: 0.9 });
const icon = (box: Candidate["box"]): Candidate => ({ kind: "icon", label: "", box, conf: 0.4 });
const linesOf = (name: string): Candidate[] => realLabel(name).text.map((t) => text(t.text, t.box));

describe("findMenuCard", () => {
  it("finds a sleep-timer menu over a dimmed player and drops the player's controls", async () => {
    const name = "ra-azura-sleep-timer-menu.png";
    const image = await loadRealImage(name);
    const lines = linesOf(name);
    const card = findMenuCard(image, lines);
    expect(card).toBeDefined();
    const [l = 0, t = 0, r = 0, b = 0] = card ?? [];
    // The panel's sides are at x ≈ 0.2 and 0.8; its choices run from "Sleep Timer" (0.31) to "2 hours" (0.71).
    expect(l).toBeCloseTo(0.2, 1);
    expect(r).toBeCloseTo(0.8, 1);
    expect(t).toBeLessThan(0.32);
    expect(b).toBeGreaterThan(0.7);
    const behind = [
      icon([0.443, 0.109, 0.559, 0.148]), // the sheet's chevron
      icon([0.41, 0.768, 0.589, 0.85]), // pause
      icon([0.108, 0.885, 0.322, 0.95]), // AirPlay
      icon([0.711, 0.887, 0.879, 0.948]), // stop
    ];
    // A control inside the card stays. (The detector's bare icon box around "15 min" there goes as a box
    // around text, `icon-on-text.ts`; the choice itself is kept as its button.)
    const inside: Candidate = {
      kind: "button",
      label: "15 min",
      box: [0.431, 0.366, 0.577, 0.393],
      conf: 0.4,
    };
    const kept = dropSpuriousRows([...lines, ...behind, inside], image.height / image.width, image);
    for (const row of behind) expect(kept).not.toContain(row);
    expect(kept).toContain(inside);
    for (const l of lines) expect(kept, l.label).toContain(l);
  });

  it("finds none on a passcode keypad, a centred settings page or a plain list", async () => {
    for (const name of [
      "rb-bkpasscode-enter.png",
      "rd-fordpass-action-sheet.jpg",
      "rc-tubecast-feed.jpg",
      "ra-atlantis-settings-zh.png",
    ]) {
      expect(findMenuCard(await loadRealImage(name), linesOf(name)), name).toBeUndefined();
    }
    // The keypad's middle column as OCR lists it: three centred, evenly spaced rows between the straight
    // sides of the key column, narrower than any menu.
    const keys = [
      text("ABC", [0.461, 0.683, 0.544, 0.702]),
      text("JKL", [0.466, 0.778, 0.541, 0.798]),
      text("TUV", [0.464, 0.873, 0.541, 0.893]),
    ];
    expect(findMenuCard(await loadRealImage("rb-bkpasscode-enter.png"), keys)).toBeUndefined();
  });
});

describe("drawerEdge", () => {
  it("finds an open side drawer and drops the cut text in the dimmed strip beside it", async () => {
    const name = "rc-vpsny-accounts-drawer.png";
    const image = await loadRealImage(name);
    expect(drawerEdge(image)).toBeCloseTo(0.875, 2);
    const strip = [text("512", [0.942, 0.196, 0.991, 0.208]), text("Runr", [0.942, 0.241, 1, 0.252])];
    const menu: Candidate = { kind: "button", label: "menu", box: [0.919, 0.061, 0.983, 0.088], conf: 0.5 };
    const lines = linesOf(name);
    const kept = dropSpuriousRows([...lines, ...strip, menu], image.height / image.width, image);
    for (const row of strip) expect(kept).not.toContain(row);
    expect(kept).toContain(menu);
    for (const l of lines) expect(kept, l.label).toContain(l);
  });

  it("finds none on screens with long straight edges: inset cards, a theme grid, a photo grid", async () => {
    for (const name of [
      "rv-iqkm-settings.png",
      "rc-icecubes-theme-selector.png",
      "ra-tzimagepicker-grid-zh.png",
      "rc-bingpaper-list-dark.jpg",
    ])
      expect(drawerEdge(await loadRealImage(name)), name).toBeUndefined();
  });
});
