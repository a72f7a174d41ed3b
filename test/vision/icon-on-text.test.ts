import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../src/shared/image.js";
import type { Candidate } from "../../src/vision/row.js";
import { dropSpuriousRows } from "../../src/vision/spurious.js";
import { loadRealImage, realLabel } from "./real-set.js";

/**
 * Icon boxes around text and app tiles cut by the screen's edge (`icon-on-text.ts`), on real screenshots
 * of the development set: the rows are the screen's labelled text lines (as OCR lists them) plus the
 * detector's and the app namer's boxes from today's pipeline output on the same screen.
 */
const icon = (box: Candidate["box"]): Candidate => ({ kind: "icon", label: "", box, conf: 0.4 });

async function load(name: string): Promise<{ image: RgbImage; lines: Candidate[]; aspect: number }> {
  const image = await loadRealImage(name);
  const lines = realLabel(name).text.map(
    (t): Candidate => ({ kind: "text", label: t.text, box: t.box, conf: 0.9 }),
  );
  return { image, lines, aspect: image.height / image.width };
}

describe("icons boxing text", () => {
  it("drops an icon box whose only ink is lines OCR read (a stats card's two lines)", async () => {
    const { image, lines, aspect } = await load("rc-300hero-profile-dark.jpg");
    const box = icon([0.535, 0.459, 0.697, 0.515]); // around "总场数:1748" / "胜场数:1074"
    expect(dropSpuriousRows([...lines, box], aspect, image)).toEqual(lines);
  });

  it("drops a box around a caption read as an app's name, keeps the captioned buttons", async () => {
    const { image, lines, aspect } = await load("rb-twilio-call-view.png");
    const captions = new Set(["Mute", "Hold", "Speaker"]);
    const buttons = lines
      .filter((l) => captions.has(l.label))
      .map((l, i): Candidate => {
        const b = realLabel("rb-twilio-call-view.png").elements[i]?.box ?? [0, 0, 0, 0];
        return { kind: "app", label: l.label, box: b, labelBox: l.box, conf: 0.6 };
      });
    const others = lines.filter((l) => !captions.has(l.label));
    const rows = [...others, ...buttons];
    const hold = icon([0.446, 0.712, 0.558, 0.761]); // under the Hold button, around its caption
    expect(dropSpuriousRows([...rows, hold], aspect, image)).toEqual(rows);
  });

  it("keeps boxes with ink of their own around text: a contact pill, a glyph beside its value", async () => {
    const { image, lines, aspect } = await load("rb-messagekit-chat.png");
    const pill = icon([0.055, 0.572, 0.4, 0.611]); // the "S  System  >" contact button in its bubble
    const player = icon([0.06, 0.37, 0.47, 0.41]); // play glyph, scrubber and "0:04"
    const out = dropSpuriousRows([...lines, pill, player], aspect, image);
    expect(out).toContain(pill);
    expect(out).toContain(player);
  });
  it("keeps a glyph's box when the OCR read the glyph as one letter (a close button's ✕ as `x`)", async () => {
    const { image, lines, aspect } = await load("ra-ntfy-share-sheet.jpg");
    const letter: Candidate = { kind: "text", label: "x", box: [0.91, 0.107, 0.946, 0.123], conf: 0.9 };
    const close = icon([0.9, 0.103, 0.955, 0.126]);
    expect(dropSpuriousRows([...lines, letter, close], aspect, image)).toContain(close);
  });
});

describe("app tiles cut by the screen's edge", () => {
  it("drops the share sheet's last tile, its name clipped at the side, and keeps the whole ones", async () => {
    const { image, lines, aspect } = await load("ra-ntfy-share-sheet.jpg");
    const tiles = realLabel("ra-ntfy-share-sheet.jpg")
      .elements.filter((e) => e.kind === "app")
      .map((e): Candidate => {
        const name = lines.find((l) => l.label === e.label);
        return {
          kind: "app",
          label: e.label,
          box: e.box,
          ...(name ? { labelBox: name.box } : {}),
          conf: 0.6,
        };
      });
    expect(tiles).toHaveLength(4);
    const rows = [...lines.filter((l) => !tiles.some((t) => t.label === l.label)), ...tiles];
    const cut: Candidate = {
      kind: "app",
      label: "Goc",
      box: [0.898, 0.225, 1.051, 0.296],
      labelBox: [0.949, 0.305, 1, 0.317],
      conf: 0.5,
    };
    expect(dropSpuriousRows([...rows, cut], aspect, image)).toEqual(rows);
  });
});
