import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOcrEngine, type PaddleOcrEngine } from "../../../src/vision/ocr/index.js";
import { MONO_MIN_CHARS, monospacePitch } from "../../../src/vision/ocr/monospace.js";
import { decodeRgb } from "../../../src/vision/rectify.js";

/** Positions of `text`'s characters on a grid of `pitch` from `x0`, each off by `jitter(i)`. */
function grid(text: string, pitch: number, jitter: (i: number) => number = () => 0): number[] {
  return Array.from(text, (_, i) => 10 + i * pitch + jitter(i));
}

describe("monospacePitch", () => {
  it("finds the pitch of characters on a regular grid, read at whole CTC steps", () => {
    // A 14 pt Menlo cell is ~3.3 recogniser steps; each character is placed at the step it was emitted.
    const text = "let url = new Request(u)";
    const pitch = monospacePitch(text, grid(text, 3.3).map(Math.round));
    expect(pitch).toBeCloseTo(3.3, 1);
  });

  it("finds none in proportional text (advances of i, l and m differ threefold)", () => {
    const text = "immediately filling mills";
    const advance = (c: string) => (c === "m" ? 4.4 : /[il]/.test(c) ? 1.2 : c === " " ? 1.4 : 2.8);
    let x = 0;
    const at = Array.from(text, (c) => {
      const here = x;
      x += advance(c);
      return here;
    });
    expect(monospacePitch(text, at)).toBeUndefined();
  });

  it("leaves out a space the recogniser put beside a narrow glyph in its wide cell", () => {
    const truth = "let url = github.com/zkytech";
    const at = grid(truth, 3);
    const dot = truth.indexOf(".");
    // `github. com`: a space read after the dot, at the middle of the gap to the next character.
    const read = `${truth.slice(0, dot + 1)} ${truth.slice(dot + 1)}`;
    const withSpace = [...at.slice(0, dot + 1), (at[dot] ?? 0) + 1.5, ...at.slice(dot + 1)];
    expect(monospacePitch(read, withSpace)).toBeCloseTo(3, 1);
  });

  it("trusts no pitch on a short line", () => {
    const text = "x".repeat(MONO_MIN_CHARS - 1);
    expect(monospacePitch(text, grid(text, 3))).toBeUndefined();
  });
});

/**
 * Code in a monospaced face (DejaVu Sans Mono, Menlo's ancestor; `fixtures/README.md`), read by the real
 * models: a word space there is a whole cell, as wide as the gap between two labels, and the lines
 * were cut at every space (`let` | `url = …`) before the gap splitter knew the line's pitch.
 */
describe("monospaced code read by PaddleOcrEngine", () => {
  let engine: PaddleOcrEngine;
  let texts: string[] = [];
  beforeAll(async () => {
    engine = await createOcrEngine();
    const image = await decodeRgb(readFileSync("test/vision/ocr/fixtures/code-mono.png"));
    texts = (await engine.recognize(image)).map((l) => l.text);
  }, 120_000);
  afterAll(async () => {
    await engine?.close();
  });

  for (const line of [
    `let url = "https://api.example.com/items"`,
    "let widget = await createWidget(items)",
    String.raw`"script" : "\n\/\/ LOL widget\n\/\/ sizes",`,
    String.raw`\nlet teamTxtWidth = 60 \/\/ width`,
  ])
    it(`reads ${line} as one line`, () => {
      expect(texts).toContain(line);
    });
});
