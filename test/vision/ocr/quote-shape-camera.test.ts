import { describe, expect, it } from "vitest";
import { filmedRealScreen } from "./filmed-real.js";
import { useRealOcrEngine } from "./real-engine.js";

/**
 * Quote marks on camera frames, read by the real models (issue 15, session 18). The curly `“` of
 * NetNewsWire's 13 pt grey article summaries was read straight (`"world`, `"I tend`): the lens blur's
 * halo, counted at full weight, pulled the measured slant of the mark's ends under the threshold
 * (`typography.ts`, `CURLY_SLANT`). A developer's straight marks, filmed, stay straight, also where
 * the recogniser itself emitted a curly one.
 * Seeds: the bench's (7 + the screen's index in the dev set).
 */
const FILMED: [string, number, string][] = [
  ["rc-netnewswire-timeline-dark.png", 91, "ceries delivered to data centers, and “world"],
  ["rc-netnewswire-timeline-light.png", 92, "ang quote recently: “I tend to think tha"],
  // The recogniser emitted `‘` for this straight mark; measured straight, it is written straight.
  ["ra-tp-alertcontroller-prefs.png", 26, "When 'Dismiss by tapping outside' is disabled 'Hide cancel"],
];

describe("quote marks on filmed real screens", () => {
  const engine = useRealOcrEngine();
  for (const [name, seed, text] of FILMED)
    it(`reads ${text} on ${name} filmed`, async () => {
      const lines = (await engine().recognize(await filmedRealScreen(name, seed))).map((l) => l.text);
      expect(lines.some((l) => l.startsWith(text))).toBe(true);
    }, 60_000);
});
