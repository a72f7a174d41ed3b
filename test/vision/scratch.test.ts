import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../src/shared/image.js";
import { proposeGlyphs } from "../../src/vision/glyphs.js";
import { ScratchBuffers } from "../../src/vision/scratch.js";
import { applyScreenSemantics } from "../../src/vision/semantics.js";
import { findSwitches } from "../../src/vision/switches.js";
import { filmedRealScreen } from "./ocr/filmed-real.js";
import { loadRealImage } from "./real-set.js";

/**
 * The pipeline's pool of working planes (`scratch.ts`) is reused from one peek to the next: a listing
 * must not depend on the screen read before it, of another size or not.
 */

/** A 390 × 844 pt dark material at 2 px/pt with SF Symbols' `pause.fill` (a `resplitBold` case). */
function pauseScreen(): RgbImage {
  const S = 2;
  const W = 390 * S;
  const H = 844 * S;
  const data = Buffer.alloc(W * H * 3);
  for (let i = 0; i < W * H; i++) data.set([52, 36, 70], i * 3);
  for (const [l, r] of [
    [183, 191],
    [199, 207],
  ] as const)
    for (let y = 635 * S; y < 665 * S; y++)
      for (let x = l * S; x < r * S; x++) data.set([255, 255, 255], (y * W + x) * 3);
  return { width: W, height: H, channels: 3, data };
}

describe("ScratchBuffers", () => {
  it("hands out zero-filled views, whatever the key's last user wrote", () => {
    const pool = new ScratchBuffers();
    pool.f64("t", 100).fill(7);
    pool.u8("m", 50).fill(1);
    const again = pool.f64("t", 60);
    expect(again).toHaveLength(60);
    expect(again.every((v) => v === 0)).toBe(true);
    expect(pool.u8("m", 50).every((v) => v === 0)).toBe(true);
    // A larger request replaces the key's memory; a smaller one after it reuses it.
    pool.i32("l", 1000).fill(-1);
    expect(pool.heldBytes).toBe(800 + 50 + 4000);
    expect(pool.i32("l", 10).every((v) => v === 0)).toBe(true);
    expect(pool.heldBytes).toBe(800 + 50 + 4000);
  });

  it("gives the same listing passes for screens of different sizes in a row as for each alone", async () => {
    // A 640 × 1136 Settings screen (switches), a 585 px filmed frame with toolbar glyphs and a 780 px
    // screen with a bold symbol (the re-read's tables): three working sizes.
    const screens = [
      await loadRealImage("ra-atlantis-settings-zh.png"),
      await filmedRealScreen("rd-bark-shortcuts-action-detail-zh.png", 11),
      pauseScreen(),
    ];
    const alone = screens.map((s) => ({
      rows: applyScreenSemantics(s, []),
      glyphs: proposeGlyphs(s, []),
      switches: findSwitches(s),
    }));
    expect(alone.some((a) => a.switches.length > 0)).toBe(true);
    expect(alone.every((a) => a.glyphs.length > 0)).toBe(true);
    const pool = new ScratchBuffers();
    for (const i of [0, 1, 2, 1, 0, 2]) {
      const s = screens[i] as RgbImage;
      const want = alone[i];
      expect(applyScreenSemantics(s, [], undefined, pool), `screen ${i}`).toEqual(want?.rows);
      expect(proposeGlyphs(s, [], undefined, pool), `screen ${i}`).toEqual(want?.glyphs);
      expect(findSwitches(s, pool), `screen ${i}`).toEqual(want?.switches);
    }
    expect(pool.heldBytes).toBeGreaterThan(0);
  }, 300_000);
});
