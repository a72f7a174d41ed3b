import { describe, expect, it } from "vitest";
import { filmedRealScreen } from "./filmed-real.js";
import { useRealOcrEngine } from "./real-engine.js";

/**
 * Chinese lines on camera frames of the development set (issue 15, session 7), each misread before:
 * a kana glyph lost to the blank, a truncation ellipsis read as a dash and full stops, and a map label
 * boxed short of its last ideograph and read in the recogniser's Simplified forms on a Traditional screen.
 */
const FILMED: [string, number, string, string][] = [
  ["rc-300hero-leaderboard-dark.jpg", 74, "恋爱の审判者", "の put back from its kana runner-up"],
  ["rb-universekb-keyboard-list.png", 69, "键盘与隐私…", "the ellipsis's dots not read as `—...`"],
  ["rc-gogoro-map-station.jpg", 81, "法律資訊", "read on past the box's end, in the screen's script"],
];

describe("Chinese lines on filmed real screens, read by the real models", () => {
  const engine = useRealOcrEngine();

  for (const [name, seed, text, why] of FILMED)
    it(`reads "${text}" on ${name} filmed (${why})`, async () => {
      expect((await engine().recognize(await filmedRealScreen(name, seed))).map((l) => l.text)).toContain(
        text,
      );
    }, 120_000);
});
