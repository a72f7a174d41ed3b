import { describe, expect, it } from "vitest";
import { filmedRealScreen } from "./filmed-real.js";
import { useRealOcrEngine } from "./real-engine.js";

/**
 * A server location's title and its grey secondary label side by side (`Singapore  Singapore`, real
 * dev-set screen rc-vpsny-deploy, 0.69 em apart on the screenshot) filmed as the bench films it: blur
 * narrows the blank between them by ~2 px to 0.56 em, under `split.ts`'s 0.6 em, and they were listed
 * as one line `Singapore Singapore`. Words of one label stay together (`Private Networking, …`).
 */
describe("side-by-side labels on a filmed real screen (rc-vpsny-deploy)", () => {
  const engine = useRealOcrEngine();

  it("lists the title and the secondary label apart", async () => {
    const texts = (await engine().recognize(await filmedRealScreen("rc-vpsny-deploy.png", 101))).map(
      (l) => l.text,
    );
    expect(texts).not.toContain("Singapore Singapore");
    // Two more further down (another location's pair, stacked).
    expect(texts.filter((t) => t === "Singapore").length).toBe(4);
    expect(texts.some((t) => t.startsWith("Private Networking, Backups"))).toBe(true);
  }, 120_000);
});
