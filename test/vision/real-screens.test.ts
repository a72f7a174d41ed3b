import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type RealScreen, realScreenSchema } from "../../src/lab/real/labels.js";
import type { ListingEntry } from "../../src/vision/listing.js";
import { defaultVisionStack } from "./vision-stack.js";

/**
 * Acting on real iPhone screenshots through the listing alone, as an agent would: pick rows by kind and
 * label, tap each row's centre, and check against the hand label (`datasets/real-iphone/`) what the tap
 * would have hit. The screenshots are public ones the pipeline was never tuned on but these tests.
 */
const DATASET = join(import.meta.dirname, "..", "..", "datasets", "real-iphone");

function load(id: string): { label: RealScreen; image: Buffer } {
  const label = realScreenSchema.parse(
    JSON.parse(readFileSync(join(DATASET, "labels", `${id}.json`), "utf8")),
  );
  return { label, image: readFileSync(join(DATASET, "images", label.image)) };
}

const centre = (e: ListingEntry): { x: number; y: number } => ({
  x: (e.box[0] + e.box[2]) / 2,
  y: (e.box[1] + e.box[3]) / 2,
});

/** The labelled element a tap at `p` lands on (the smallest box containing it). */
function hit(label: RealScreen, p: { x: number; y: number }): RealScreen["elements"][number] | undefined {
  return label.elements
    .filter((e) => p.x >= e.box[0] && p.x <= e.box[2] && p.y >= e.box[1] && p.y <= e.box[3])
    .sort(
      (a, b) => (a.box[2] - a.box[0]) * (a.box[3] - a.box[1]) - (b.box[2] - b.box[0]) * (b.box[3] - b.box[1]),
    )[0];
}

describe("acting on real iPhone screenshots through the listing", () => {
  const vision = defaultVisionStack();

  it("types a word on the keyboard: every letter's key row taps that key", async () => {
    const { label, image } = load("rv-iqkm-keyboard");
    const view = await vision().pipeline.fromScreenshot(image);
    const keys = view.entries.filter((e) => e.kind === "key");
    // Every key of the labelled keyboard has a row, and each row's centre is on its own key.
    const labelledKeys = label.elements.filter((e) => e.kind === "key");
    const onKeys = keys.filter((k) => hit(label, centre(k))?.kind === "key");
    expect(onKeys.length).toBe(labelledKeys.length);
    for (const k of onKeys) expect(hit(label, centre(k))?.char?.toLowerCase()).toBe(k.label.toLowerCase());
    // The emoji / globe key under the keyboard is labelled a button (it types no character): its key row
    // must land on that button, by name.
    for (const k of keys.filter((r) => !onKeys.includes(r)))
      expect(hit(label, centre(k))?.label).toBe(k.label);
    // Type "quiz jam" (OCR read none of q, u, i, z, j on this screenshot: their keys come from the grid).
    const typed: string[] = [];
    for (const ch of Array.from("quiz jam")) {
      const want = ch === " " ? "space" : ch;
      const row = keys.find((k) => k.label.toLowerCase() === want);
      expect(row, `a key row for ${want}`).toBeDefined();
      if (!row) continue;
      const landed = hit(label, centre(row));
      typed.push(landed?.char === "space" ? " " : (landed?.char ?? "?").toLowerCase());
    }
    expect(typed.join("")).toBe("quiz jam");
    // The raw OCR letters and detector boxes on the keys are gone: no text row sits on a key.
    for (const e of view.entries.filter((r) => r.kind === "text" || r.kind === "icon"))
      expect(hit(label, centre(e))?.kind).not.toBe("key");
  });

  it("switches keyboards: the globe under a third-party keyboard's keys is a key row on the globe", async () => {
    // Universe Keyboard (Chinese, English mode): `英` sits where the emoji key does, and the Face ID strip's
    // globe is found only by the glyph proposer, after the keyboard is laid out.
    const { label, image } = load("rb-universekb-t9-qwerty");
    const view = await vision().pipeline.fromScreenshot(image);
    const globe = view.entries.find((e) => e.kind === "key" && e.label === "globe");
    expect(globe, "a globe key row").toBeDefined();
    if (globe) expect(hit(label, centre(globe))?.char).toBe("globe");
    const switchKey = view.entries.find((e) => e.kind === "key" && e.label === "英");
    expect(switchKey && hit(label, centre(switchKey))?.char).toBe("英");
  });

  it("flips a switch on the Settings screenshot: the right row, the right state", async () => {
    const { label, image } = load("rv-iqkm-settings");
    const view = await vision().pipeline.fromScreenshot(image);
    const switches = view.entries.filter((e) => e.kind === "switch");
    expect(switches.length).toBeGreaterThanOrEqual(5);
    // Turn "Should Show TextField Placeholder" off: its row says on, and a tap lands on that switch.
    const row = switches.find((s) => s.label === "Should Show TextField Placeholder");
    expect(row?.state).toBe("on");
    if (!row) return;
    const target = hit(label, centre(row));
    expect(target?.kind).toBe("switch");
    expect(target?.label).toBe("Should Show TextField Placeholder");
    expect(target?.state).toBe(row.state);
    // Every listed switch is a labelled switch in the state the label gives.
    for (const s of switches) {
      const t = hit(label, centre(s));
      expect(t?.kind).toBe("switch");
      expect(s.state).toBe(t?.state);
    }
  });

  it("dials on the keypad: each digit's key row taps that key, and X reads as delete", async () => {
    const { label, image } = load("rv-dialer-pin");
    const view = await vision().pipeline.fromScreenshot(image);
    const keys = view.entries.filter((e) => e.kind === "key");
    for (const d of Array.from("1234567890*")) {
      const row = keys.find((k) => k.label === d);
      expect(row, `a key row for ${d}`).toBeDefined();
      if (row) expect(hit(label, centre(row))?.char).toBe(d);
    }
    const del = keys.find((k) => k.label === "delete");
    expect(del && hit(label, centre(del))?.char).toBe("delete");
  });

  it("lists a keypad's letters as text inside their keys and a T9 keyboard without * 0 #", async () => {
    const { label, image } = load("rb-universekb-t2-candidates");
    const view = await vision().pipeline.fromScreenshot(image);
    const keys = view.entries.filter((e) => e.kind === "key");
    for (const want of [...Array.from("123456789"), "123", "space", "return", "delete"]) {
      const row = keys.find((k) => k.label === want);
      expect(row, `a key row for ${want}`).toBeDefined();
      if (row) expect(hit(label, centre(row))?.char).toBe(want);
    }
    expect(keys.filter((k) => ["*", "0", "#"].includes(k.label))).toEqual([]);
    // The letters a person reads on the keys stay rows of their own, each inside its digit's key.
    for (const [letters, digit] of [
      ["ABC", "2"],
      ["GHI", "4"],
      ["WXYZ", "9"],
    ] as const) {
      const row = view.entries.find((e) => e.kind === "text" && e.label === letters);
      expect(row, letters).toBeDefined();
      if (row) expect(hit(label, centre(row))?.char).toBe(digit);
    }
  });

  it("computes on the calculator by tapping key rows: 12+3=", async () => {
    const { label, image } = load("rb-simplecalc-calculator");
    const view = await vision().pipeline.fromScreenshot(image);
    const keys = view.entries.filter((e) => e.kind === "key");
    const pressed = Array.from("12+3=").map((ch) => {
      const row = keys.find((k) => k.label === ch);
      return row ? hit(label, centre(row))?.char : undefined;
    });
    expect(pressed.join("")).toBe("12+3=");
    expect(keys).toHaveLength(label.elements.filter((e) => e.kind === "key").length);
  });

  it("lists the status bar as one row with the time", async () => {
    const { image } = load("rv-dialer-pin");
    const view = await vision().pipeline.fromScreenshot(image);
    const status = view.entries.filter((e) => e.kind === "status");
    expect(status.map((s) => s.label)).toEqual(["12:05"]);
    expect(view.entries.filter((e) => e !== status[0] && (e.box[1] + e.box[3]) / 2 < 0.045)).toEqual([]);
  });

  it("a large line under a round button stays text; small names under app tiles still name them", async () => {
    // A note's first line set large under the round back button is content an agent must read, not
    // the button's name (iOS sets app names in 11–12 pt under 60 pt tiles).
    const note = await vision().pipeline.fromScreenshot(load("rb-universekb-t9-qwerty").image);
    expect(note.entries.find((e) => e.label === "你好")?.kind).toBe("text");
    expect(note.entries.filter((e) => e.kind === "app")).toEqual([]);
    const home = await vision().pipeline.fromScreenshot(load("rd-homewidget-home-widget").image);
    expect(home.entries.filter((e) => e.kind === "app").map((e) => e.label)).toEqual(
      expect.arrayContaining(["News", "Wallet"]),
    );
  });
});
