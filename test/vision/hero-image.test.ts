import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../src/shared/image.js";
import { heroApps, heroImages } from "../../src/vision/hero-image.js";
import type { Candidate } from "../../src/vision/row.js";
import { dropSpuriousRows } from "../../src/vision/spurious.js";
import { loadRealImage, realLabel } from "./real-set.js";

/**
 * The image heading a centred title stack, on real screenshots of the development set. The rows are the
 * screen's labelled text lines (as OCR lists them) plus the detector's icon box from today's pipeline
 * output on the same screen.
 */
const icon = (box: Candidate["box"]): Candidate => ({ kind: "icon", label: "", box, conf: 0.45 });

async function load(name: string): Promise<{ image: RgbImage; lines: Candidate[] }> {
  const image = await loadRealImage(name);
  const lines = realLabel(name).text.map(
    (t): Candidate => ({ kind: "text", label: t.text, box: t.box, conf: 0.9 }),
  );
  return { image, lines };
}

describe("heroImages", () => {
  it("drops the symbol over an empty state's, a call screen's and a Touch ID prompt's title", async () => {
    for (const [name, box] of [
      ["ra-ntfy-safari-page.jpg", [0.427, 0.315, 0.572, 0.377]], // "It looks like you don't have…"
      ["rb-twilio-incoming-view.png", [0.439, 0.326, 0.558, 0.383]], // "alice" / "Incoming Call"
      ["rb-bkpasscode-touchid.png", [0.454, 0.333, 0.547, 0.375]], // the app's name / "Touch ID"
    ] as const) {
      const { image, lines } = await load(name);
      const symbol = icon([...box]);
      expect(dropSpuriousRows([...lines, symbol], image.height / image.width, image), name).toEqual(lines);
    }
  });

  it("keeps round buttons over a one-line caption and symbols off the middle", async () => {
    const name = "rb-twilio-call-view.png";
    const { image, lines } = await load(name);
    const aspect = image.height / image.width;
    // The call screen's buttons: the middle one (Hold) is centred, with its one-word caption under it.
    const buttons = realLabel(name)
      .elements.filter((e) => e.kind === "button")
      .map((e) => icon(e.box));
    expect(heroImages([...lines, ...buttons], aspect).size).toBe(0);
    // The same image and title stack moved off the middle is a row's leading image, not a header.
    const { lines: stack, image: shot } = await load("rb-twilio-incoming-view.png");
    const moved = (b: Candidate["box"]): Candidate["box"] => [b[0] - 0.2, b[1], b[2] - 0.2, b[3]];
    const shifted = stack.map((l) => ({ ...l, box: moved(l.box) }));
    expect(
      heroImages([...shifted, icon(moved([0.439, 0.326, 0.558, 0.383]))], shot.height / shot.width).size,
    ).toBe(0);
  });

  it("keeps a picture filling the page over an article's text (content, not a header)", async () => {
    // The painting of a NetNewsWire article, centred, with body text (some lines near the middle) under it.
    const { image, lines } = await load("rc-netnewswire-article-dark.jpg");
    const painting = icon([0.043, 0.355, 0.952, 0.848]);
    const read: Candidate = {
      kind: "text",
      label: "re world, an and science",
      box: [0.214, 0.958, 0.755, 0.976],
      conf: 0.9,
    };
    expect(heroImages([...lines, read, painting], image.height / image.width).size).toBe(0);
  });

  it("lists a caller's placeholder named as an app by its name as text, keeps captioned buttons", async () => {
    const name = "rb-twilio-call-view.png";
    const { image, lines } = await load(name);
    const aspect = image.height / image.width;
    // Today's pipeline names the avatar "bob" by the line under it, and each call button by its caption.
    const bob = lines.find((l) => l.label === "bob");
    expect(bob).toBeDefined();
    const caller: Candidate = {
      kind: "app",
      label: "bob",
      box: [0.413, 0.085, 0.594, 0.17],
      labelBox: bob?.box,
      conf: 0.5,
    };
    const captions = new Set(["bob", "Mute", "Hold", "Speaker"]);
    const buttons = realLabel(name)
      .elements.filter((e) => e.kind === "button" && e.label !== "end call")
      .map((e): Candidate => {
        const caption = lines.find((l) => l.label === e.label);
        return { kind: "app", label: e.label, box: e.box, labelBox: caption?.box, conf: 0.6 };
      });
    const others = lines.filter((l) => !captions.has(l.label));
    const out = dropSpuriousRows([...others, caller, ...buttons], aspect, image);
    expect(out).toEqual([...others, { kind: "text", label: "bob", box: bob?.box, conf: 0.5 }, ...buttons]);
    // A dock's or grid's app has neighbours on its line: not a caller, even with text under its name.
    expect(heroApps([...others, caller, { ...caller, box: [0.7, 0.085, 0.88, 0.17] }], aspect).size).toBe(0);
  });
});
