import { describe, expect, it } from "vitest";
import { smallByXHeight } from "../../../src/vision/ocr/x-height.js";
import { filmedRealScreen } from "./filmed-real.js";
import { useRealOcrEngine } from "./real-engine.js";

/**
 * A line-initial small `s` / `c` (SF Pro draws their capitals as the same shape, larger) filmed by the
 * simulated camera: blur grows every glyph by about a pixel a side, so the small letter measured 0.75 and
 * 0.77 of the line's ink height — the capitals' range on screenshots — and `initialCase` made it a
 * capital (`Settings, but`, `Chat`). Against the line's own x-height line it stands small.
 */
describe("a line's first size-only letter on filmed real screens", () => {
  const engine = useRealOcrEngine();

  it("keeps settings, but small in a chat bubble (rb-jsqmessages-keyboard)", async () => {
    const texts = (await engine().recognize(await filmedRealScreen("rb-jsqmessages-keyboard.png", 52))).map(
      (l) => l.text,
    );
    expect(texts).toContain("settings, but");
  }, 120_000);

  it("keeps chat small (rb-messagemaker-messages)", async () => {
    const texts = (await engine().recognize(await filmedRealScreen("rb-messagemaker-messages.jpg", 59))).map(
      (l) => l.text,
    );
    expect(texts).toContain("chat");
    expect(texts).not.toContain("Chat");
  }, 120_000);
});

describe("smallByXHeight", () => {
  // Cap line at 0, baseline at 20, x-height line at 6 (SF Pro: 0.53 / 0.705 of the cap height below it).
  it("calls a glyph whose top is at the x-height line small, one at the cap line capital", () => {
    expect(smallByXHeight(6, 20, 0, 6)).toBe(true);
    expect(smallByXHeight(1, 20, 0, 6)).toBe(false);
  });
  it("has no say on a line with no x-height line below its top (all capitals or ascenders)", () => {
    expect(smallByXHeight(6, 20, 0, 1)).toBeUndefined();
    expect(smallByXHeight(6, 20, 0, undefined)).toBeUndefined();
  });
});
