import { describe, expect, it } from "vitest";
import { textAroundTabBar } from "../../src/vision/tab-bar-content.js";
import { row } from "./candidates.js";
import { realLabel } from "./real-set.js";

describe("text around a floating tab bar", () => {
  it("drops the page's words seen around Ice Cubes' tab bar, keeps titles and glyphs on symbols", () => {
    const label = realLabel("rc-icecubes-trending.json");
    // The labelled text (tab titles included) and the tab symbols and search circle as the pipeline boxed them.
    const text = label.text.map((t) => row("text", t.text, t.box));
    const symbols = [
      row("icon", "", [0.037, 0.913, 0.254, 0.964]),
      row("icon", "", [0.236, 0.907, 0.427, 0.967]),
      row("icon", "", [0.45, 0.915, 0.576, 0.955]),
      row("icon", "", [0.628, 0.916, 0.721, 0.95]),
      row("icon", "", [0.798, 0.913, 0.937, 0.967]), // search
    ];
    const onSymbols = [
      row("text", "D", [0.641, 0.92, 0.7, 0.94]),
      row("text", "Q", [0.842, 0.929, 0.893, 0.949]),
    ];
    const page = [
      row("text", "etv", [0.761, 0.914, 0.813, 0.928]),
      row("text", "8", [0.776, 0.937, 0.797, 0.952]),
      row("text", "et", [0.719, 0.964, 0.767, 0.977]),
    ];
    const out = textAroundTabBar([...text, ...symbols, ...onSymbols, ...page]);
    expect(new Set(out)).toEqual(new Set(page));
  });

  it("keeps a badge on a tab's symbol and a symbol read as a character above its title", () => {
    const titles = ["Home", "Subscriptions", "Playlists", "Settings"].map((t, i) =>
      row("text", t, [0.1 + 0.25 * i, 0.949, 0.18 + 0.25 * i, 0.96]),
    );
    const symbols = [0, 1, 3].map((i) => row("icon", "", [0.1 + 0.25 * i, 0.906, 0.18 + 0.25 * i, 0.945]));
    const badge = row("text", "4", [0.17, 0.9, 0.19, 0.915]);
    const glyph = row("text", "月", [0.6, 0.919, 0.645, 0.945]); // Playlists' symbol, not boxed as an icon
    expect(textAroundTabBar([...titles, ...symbols, badge, glyph]).size).toBe(0);
  });

  it("does nothing without a tab bar (a toolbar of symbols without titles)", () => {
    const symbols = [0.1, 0.3, 0.5, 0.7].map((x) => row("icon", "", [x, 0.92, x + 0.08, 0.96]));
    const text = row("text", "ns and (", [0.2, 0.93, 0.28, 0.945]);
    expect(textAroundTabBar([...symbols, text]).size).toBe(0);
  });
});
