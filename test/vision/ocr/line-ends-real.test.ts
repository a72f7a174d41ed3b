import { describe, expect, it } from "vitest";
import { filmedRealScreen } from "./filmed-real.js";
import { useRealOcrEngine } from "./real-engine.js";

/**
 * Line ends and word spaces in camera frames of the development set (issue 15, session 7), each read
 * wrong before: a word's last letter past a bubble's edge the walk took for ink beside the line
 * (`FaceTim`), blurred letters joined into one run of ink taken for an icon (`Last C`), two regions of
 * one line a word space apart (`Updated: 2 Hours` + `ago`), and a space the recogniser put back
 * inside a word on a weak score (`text Field's`).
 */
const FILMED: [string, number, string, string | undefined][] = [
  ["rb-messagemaker-messages.jpg", 59, "FaceTime", "FaceTim"],
  // One of the widget's three `Updated` captions (the others: no region over `Upda`, and a line read twice).
  ["rd-fordpass-home-widgets-light.jpg", 115, "Updated: 2 Hours ago", undefined],
  [
    "rv-iqkm-settings.png",
    129,
    "Uses textField's tintColor property for IQToolbar",
    "Uses text Field's tintColor property for IQToolbar",
  ],
];

describe("line ends and word spaces in camera frames, read by the real models", () => {
  const engine = useRealOcrEngine();

  for (const [name, seed, text, before] of FILMED)
    it(`reads "${text}" on ${name} filmed`, async () => {
      const texts = (await engine().recognize(await filmedRealScreen(name, seed))).map((l) => l.text);
      expect(texts).toContain(text);
      if (before) expect(texts).not.toContain(before);
    }, 60_000);

  it("follows a small grey caption whose blurred letters run together", async () => {
    const texts = (await engine().recognize(await filmedRealScreen("rd-fordpass-action-sheet.jpg", 112))).map(
      (l) => l.text,
    );
    expect(texts.some((t) => t.startsWith("Last Checkin"))).toBe(true);
    expect(texts).not.toContain("Last C");
  }, 60_000);
});
