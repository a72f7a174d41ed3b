import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { realScreenSchema } from "../../src/lab/real/labels.js";
import type { FracBox } from "../../src/shared/box.js";
import type { RgbImage } from "../../src/shared/image.js";
import { applyKeyboard } from "../../src/vision/keyboard.js";
import { globeOrEmoji } from "../../src/vision/keyboard-system-keys.js";
import { decodeRgb } from "../../src/vision/rectify.js";
import type { Candidate } from "../../src/vision/row.js";

const DATASET = join(import.meta.dirname, "..", "..", "datasets", "real-iphone");

/** A labelled development-set screen: its label and its decoded pixels. */
async function devScreen(id: string) {
  const label = realScreenSchema.parse(
    JSON.parse(readFileSync(join(DATASET, "labels", `${id}.json`), "utf8")),
  );
  return { label, image: await decodeRgb(readFileSync(join(DATASET, "images", label.image))) };
}

const text = (label: string, box: FracBox): Candidate => ({ kind: "text", label, box, conf: 0.95 });
const centre = (b: FracBox): [number, number] => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];
const inside = (p: [number, number], b: FracBox): boolean =>
  p[0] > b[0] && p[0] < b[2] && p[1] > b[1] && p[1] < b[3];

/**
 * An iPhone 8 keyboard (375×667 pt at 1×, iOS 11 light: background grey 212, letter caps 255, function
 * caps 178) drawn with the development set's Touch ID metrics (`rb-ios-passcode-keyboard`,
 * `rb-jsqmessages-keyboard`: pitch = width / 10, caps 0.85 pitch, rows 1.38 pitches apart, the bottom
 * row's function caps 1.07 pitches wide with 0.18 pitch gaps) and the five-key bottom row of a Touch ID
 * iPhone with dictation on and a second keyboard: 123 | globe | mic | space | return. Returns the
 * screen, the OCR rows a reader gives for it (some letters and the words) and each bottom key's span.
 */
function touchIdKeyboard(): { screen: RgbImage; rows: Candidate[]; spans: Record<string, [number, number]> } {
  const W = 375;
  const H = 667;
  const p = W / 10;
  const rowPitch = 1.38 * p;
  const capH = 0.78 * rowPitch;
  const bottomY = H - 3 - capH / 2;
  const rowY = (r: number) => bottomY - (3 - r) * rowPitch;
  const data = Buffer.alloc(W * H * 3, 255);
  const fill = (x0: number, y0: number, x1: number, y1: number, g: number) => {
    for (let y = Math.max(0, Math.round(y0)); y < Math.min(H, Math.round(y1)); y++)
      data.fill(g, (y * W + Math.max(0, Math.round(x0))) * 3, (y * W + Math.min(W, Math.round(x1))) * 3);
  };
  const kbTop = rowY(0) - rowPitch / 2;
  fill(0, kbTop, W, H, 212);
  const cap = (u0: number, u1: number, r: number, g: number) =>
    fill(u0 * p, rowY(r) - capH / 2, u1 * p, rowY(r) + capH / 2, g);
  for (let i = 0; i < 10; i++) cap(i + 0.075, i + 0.925, 0, 255);
  for (let i = 0; i < 9; i++) cap(i + 0.575, i + 1.425, 1, 255);
  for (let i = 0; i < 7; i++) cap(i + 1.575, i + 2.425, 2, 255);
  cap(0.09, 1.16, 2, 178);
  cap(8.84, 9.91, 2, 178);
  const spans: Record<string, [number, number]> = {
    "123": [0.09, 1.16],
    globe: [1.34, 2.41],
    mic: [2.59, 3.66],
    space: [3.84, 7.41],
    return: [7.59, 9.91],
  };
  for (const [k, [u0, u1]] of Object.entries(spans)) cap(u0, u1, 3, k === "space" ? 255 : 178);
  // The globe: a ring, its equator and its central meridian, black; the mic: a capsule on a stand.
  const [gx, gy] = [((1.34 + 2.41) / 2) * p, rowY(3)];
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const d = Math.hypot(x - gx, y - gy);
      const ring = Math.abs(d - 9) < 1;
      const lines = d < 9 && (Math.abs(y - gy) < 1 || Math.abs(x - gx) < 1);
      const mx = ((2.59 + 3.66) / 2) * p;
      const mic = Math.abs(x - mx) < 3 && Math.abs(y - (gy - 2)) < 7;
      if (ring || lines || mic) data.fill(0, (y * W + x) * 3, (y * W + x) * 3 + 3);
    }
  const at = (u: number, r: number, w = 0.012): FracBox => [
    (u * p) / W - w,
    (rowY(r) - 6) / H,
    (u * p) / W + w,
    (rowY(r) + 6) / H,
  ];
  const rows = [
    ...Array.from("QWERTY").map((c, i) => text(c, at(i + 0.5, 0))),
    ...Array.from("ASDF").map((c, i) => text(c, at(i + 1, 1))),
    ...Array.from("ZXCV").map((c, i) => text(c, at(i + 2, 2))),
    text("123", at(0.625, 3, 0.03)),
    text("space", at(5.6, 3, 0.05)),
    text("return", at(8.75, 3, 0.05)),
  ];
  return {
    screen: { width: W, height: H, channels: 3, data },
    rows,
    spans: Object.fromEntries(
      Object.entries(spans).map(([k, [u0, u1]]) => [k, [(u0 * p) / W, (u1 * p) / W]]),
    ),
  };
}

describe("applyKeyboard: the bottom row as the pixels show it", () => {
  it("lists 123, globe, mic, space and return of a Touch ID row each on its own cap", () => {
    const { screen, rows, spans } = touchIdKeyboard();
    const keys = applyKeyboard(rows, screen.height / screen.width, screen).filter((r) => r.kind === "key");
    for (const [label, [x0, x1]] of Object.entries(spans)) {
      const found = keys.filter((k) => k.label === label && k.box[1] > 0.85);
      expect(found, label).toHaveLength(1);
      const box = found[0]?.box ?? [0, 0, 0, 0];
      // The key's box is its own cap: centred on it and not reaching into a neighbour.
      expect(Math.abs(centre(box)[0] - (x0 + x1) / 2), label).toBeLessThan(0.01);
      expect(box[2] - box[0], label).toBeLessThan(x1 - x0 + 0.02);
    }
  });

  it("keeps the labelled keys of the development set's Touch ID keyboards, each on its own cap", async () => {
    for (const id of ["rb-jsqmessages-keyboard", "rb-ios-passcode-keyboard"]) {
      const { label, image } = await devScreen(id);
      const truths = label.elements.filter((e) => e.kind === "key");
      // What OCR reads there: letter caps and the bottom row's words, at their labelled caps.
      const rows = truths
        .filter((e) => e.char && (e.char.length === 1 || e.char === "123" || e.char === "space"))
        .map((e) => text(e.char ?? "", e.box));
      const keys = applyKeyboard(rows, image.height / image.width, image).filter((r) => r.kind === "key");
      for (const t of truths.filter((e) => e.box[1] > 0.9)) {
        const on = keys.filter((k) => inside(centre(k.box), t.box));
        expect(
          on.map((k) => k.label),
          `${id} ${t.char}`,
        ).toEqual([t.char === "return" ? "return" : t.char]);
      }
    }
  });

  it("reads iOS 7–8's open-mouthed emoji face as emoji, not a globe", async () => {
    // The face's mouth has its top edge straight across the middle, as a globe's equator is.
    const { label, image } = await devScreen("rb-jsqmessages-keyboard");
    const emoji = label.elements.find((e) => e.kind === "key" && e.char === "emoji");
    const b = emoji?.box ?? [0, 0, 0, 0];
    const w = b[2] - b[0];
    const h = b[3] - b[1];
    expect(globeOrEmoji(image, [b[0] + 0.15 * w, b[1] + 0.1 * h, b[2] - 0.15 * w, b[3] - 0.1 * h])).toBe(
      "emoji",
    );
  });
});
