import { describe, expect, it } from "vitest";
import { loadRealImage } from "../real-set.js";
import { filmedRealScreen } from "./filmed-real.js";
import { useRealOcrEngine } from "./real-engine.js";

/**
 * A form field being edited (real dev-set screen rb-ios-passcode-keyboard): its grey title `Service
 * Name` (#C7C7CD-like, contrast 39 on white) beside the black value `apple`, and the field's tinted caret
 * after the value. Read `Service Name applel` as one line: the grey title was taken for background
 * (no blank run to cut at), and the caret for an `l`.
 */
describe("a grey field title, its black value and the caret (rb-ios-passcode-keyboard)", () => {
  const engine = useRealOcrEngine();

  it("lists the title and the value apart, without the caret", async () => {
    const texts = (await engine().recognize(await loadRealImage("rb-ios-passcode-keyboard.png"))).map(
      (l) => l.text,
    );
    expect(texts).toContain("Service Name");
    expect(texts).toContain("apple");
    // Lines of one colour keep their word spaces.
    expect(texts).toContain("Generate & Copy Passcode");
  }, 120_000);

  it("reads no caret into the value on the filmed screen", async () => {
    // Seed 7 + 37: the screen's index in the dev set, as bench/real-screens.ts films it.
    const texts = (await engine().recognize(await filmedRealScreen("rb-ios-passcode-keyboard.png", 50))).map(
      (l) => l.text,
    );
    expect(texts.some((t) => t.endsWith("applel"))).toBe(false);
    expect(texts).toContain("Generate & Copy Passcode");
  }, 120_000);
});
