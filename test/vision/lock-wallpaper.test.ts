import { describe, expect, it } from "vitest";
import { lockScreenWallpaper } from "../../src/vision/lock-wallpaper.js";
import { row } from "./candidates.js";

/**
 * Shapes in a Lock Screen's wallpaper (`lock-wallpaper.ts`), on rows the pipeline listed (main a7c6e4c)
 * for real screenshots of the development set (`datasets/real-iphone`).
 */

describe("Lock Screen wallpaper", () => {
  // ra-capacitor-lock-notification (1242 × 2688): an Earth photo behind one notification.
  const aspect = 2688 / 1242;
  const rows = [
    row("text", "AT&T", [0.096, 0.02, 0.179, 0.032]),
    row("text", "8:38", [0.295, 0.131, 0.705, 0.205]),
    row("text", "Monday, May 13", [0.316, 0.225, 0.684, 0.249]),
    row("text", "CAPAPP", [0.11, 0.296, 0.229, 0.308]),
    row("text", "now", [0.886, 0.299, 0.944, 0.308]),
    row("text", "Hello iOS", [0.051, 0.325, 0.205, 0.339]),
    row("text", "Love, Firebase :)", [0.051, 0.346, 0.316, 0.363]),
    row("icon", "", [0.098, 0.88, 0.288, 0.947]), // flashlight
    row("icon", "", [0.75, 0.887, 0.863, 0.924]), // camera
    row("text", "Swipe up to open", [0.335, 0.938, 0.665, 0.956]),
  ];
  const cloud = row("icon", "", [0.871, 0.47, 0.929, 0.499]);

  it("drops a glyph the wallpaper's clouds make, keeps the notification and the corner buttons", () => {
    expect(lockScreenWallpaper([...rows, cloud], aspect)).toEqual(new Set([cloud]));
  });

  it("keeps a notification's app glyph beside its text", () => {
    const glyph = row("icon", "", [0.05, 0.294, 0.09, 0.31]);
    expect(lockScreenWallpaper([...rows, glyph], aspect).size).toBe(0);
  });

  it("needs the large clock: a list's small time leaves every row", () => {
    const small = rows.map((r) => (r.label === "8:38" ? row("text", "8:38", [0.45, 0.131, 0.55, 0.141]) : r));
    expect(lockScreenWallpaper([...small, cloud], aspect).size).toBe(0);
  });
});
