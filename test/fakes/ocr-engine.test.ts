import { describe, expect, it } from "vitest";
import type { TextLine } from "../../src/vision/types.js";
import { makePhone, PASSCODE } from "../sim/phone/helpers.js";
import { ocrEngineContract } from "../vision/ocr/contract.js";
import { FakeOcrEngine } from "./ocr-engine.js";

ocrEngineContract(
  "FakeOcrEngine",
  async (screen) => new FakeOcrEngine({ truth: () => ({ elements: screen.elements }) }),
);

describe("FakeOcrEngine", () => {
  const image = { width: 100, height: 200, channels: 3 as const, data: Buffer.alloc(100 * 200 * 3) };

  it("answers from a phone's current truth: text elements only, at the given confidence", async () => {
    const { phone, finger } = makePhone({ locale: "zh" });
    const ocr = new FakeOcrEngine(phone, 0.8);
    finger.unlock(PASSCODE);
    const lines = await ocr.recognize(image);
    expect(lines.map((l) => l.text)).toContain("设置");
    expect(lines.every((l) => l.conf === 0.8)).toBe(true);
    const texts = phone.truth().elements.filter((e) => e.kind === "text");
    expect(lines).toHaveLength(texts.length);
    finger.tapId("home.icon.settings");
    expect((await ocr.recognize(image)).map((l) => l.text)).toContain("飞行模式");
    expect(ocr.seen).toHaveLength(2);
  });

  it("returns copies of a fixed list, so callers cannot change what it answers", async () => {
    const fixed: TextLine[] = [{ text: "OK", conf: 0.9, box: [0.1, 0.1, 0.2, 0.2] }];
    const ocr = new FakeOcrEngine(fixed);
    const first = await ocr.recognize(image);
    if (first[0]) first[0].box[0] = 0.5;
    expect((await ocr.recognize(image))[0]?.box).toEqual([0.1, 0.1, 0.2, 0.2]);
  });
});
