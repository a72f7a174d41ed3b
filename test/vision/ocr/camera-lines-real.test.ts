import { describe, expect, it } from "vitest";
import { loadRealImage } from "../real-set.js";
import { filmedRealScreen } from "./filmed-real.js";
import { useRealOcrEngine } from "./real-engine.js";

/**
 * Dev-set screens filmed as `bench/real-screens.ts --camera` filmed them when each case was written (seed 7 +
 * the screen's index then; see `filmedRealScreen`),
 * each a line the camera frame lost and the screenshot kept: two regions of one line both reading the
 * glyphs between them (`extend.ts`), a third stem read into `All` (`bar-count.ts`), the radical `丶` read
 * as the comma `、` (`han-dot.ts`), a time's `AM` read `M` (`time-suffix.ts`); and a blue back button and a
 * black title whose gap alone is too narrow to cut (`ink-colour.ts`), on the screenshot.
 */
describe("camera-frame lines the blur misread, on filmed real screens", () => {
  const engine = useRealOcrEngine();
  const texts = async (name: string, seed: number) =>
    (await engine().recognize(await filmedRealScreen(name, seed))).map((l) => l.text);

  it("reads Updated: 2 Hours ago once, and All Closed with two stems (rd-fordpass-home-widgets-light)", async () => {
    const t = await texts("rd-fordpass-home-widgets-light.jpg", 115);
    // The widget's last line was found as `…2 Hours` and `urs ago`, which read `irs ago`.
    expect(t.filter((s) => s === "Updated: 2 Hours ago")).toHaveLength(3);
    expect(t.some((s) => s.includes("irs ago"))).toBe(false);
    expect(t).not.toContain("AllI Closed");
    expect(t).toContain("All Closed");
  }, 120_000);

  it("reads All Closed, not AllI Closed (rd-fordpass-home-widget-dark)", async () => {
    const t = await texts("rd-fordpass-home-widget-dark.jpg", 113);
    expect(t.filter((s) => s === "All Closed")).toHaveLength(2);
    expect(t.some((s) => /All[lI]+ /u.test(s))).toBe(false);
  }, 120_000);

  it("keeps Gallery's two l: the second touches the e, so its ink shows one stem (rd-zkytech-scriptable-list)", async () => {
    expect(await texts("rd-zkytech-scriptable-list.jpg", 120)).toContain("Gallery");
  }, 120_000);

  it("cuts a tinted back button from a black title, a gap too narrow alone (ra-noupdatecircles-settings)", async () => {
    // Read on the screenshot: since the simulated camera films home-button screens on square glass corners
    // (they have no rounded display corners), this 16:9 screen's filmed frames read the two as one line
    // again (the links pass still lists the tinted `Settings`); on the screenshot the colours cut it.
    const t = (await engine().recognize(await loadRealImage("ra-noupdatecircles-settings.png"))).map(
      (l) => l.text,
    );
    expect(t).toContain("Settings");
    expect(t).toContain("NoUpdateCircles");
  }, 120_000);

  it("ends a player's name with the radical 丶, whose dot stands high (rc-300hero-leaderboard-dark)", async () => {
    const t = await texts("rc-300hero-leaderboard-dark.jpg", 74);
    expect(t).toContain("战场求败丶");
    expect(t).not.toContain("战场求败、");
  }, 120_000);

  it("reads a timestamp's AM (rb-messagekit-chat)", async () => {
    const t = await texts("rb-messagekit-chat.png", 58);
    expect(t).toContain("Sat, 13 Apr, 10:09 AM");
  }, 120_000);
});

/**
 * Weak camera readings read again from a crop snug to their ink's rows (`snug-reread.ts`): the blurred
 * map's region stands taller over a small line, and the recogniser drops glyphs it reads too small.
 */
describe("weak camera lines read again from a snug crop, on filmed real screens", () => {
  const engine = useRealOcrEngine();
  const texts = async (name: string, seed: number) =>
    (await engine().recognize(await filmedRealScreen(name, seed))).map((l) => l.text);

  it("reads a small grey line to its end (rc-vpsny-deploy)", async () => {
    const t = await texts("rc-vpsny-deploy.png", 101);
    // Read at 0.84 from the map's region as `…, Backups, P`.
    expect(t).toContain("Private Networking, Backups, IPv6");
  }, 120_000);

  it("reads a grey subtitle's commas and words (rb-cowabunga-extra-tools)", async () => {
    const t = await texts("rb-cowabunga-extra-tools.png", 48);
    // Read at 0.71 as `Banners ounds ad`.
    expect(t).toContain("Banners, Sounds, Badges");
  }, 120_000);
});
