import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { decodeRgb } from "../../src/vision/rectify.js";
import { findSwitches } from "../../src/vision/switches.js";
import { filmScreenshot } from "./ocr/filmed-real.js";
import { type SwitchScreen, switchAt, switchScreen } from "./switch-synth.js";

const GREEN = "#34C759";
const DARK_GREEN = "#30D158";

/** Finds the screen's switches and checks each truth's state, the cut one included, and no extra one. */
async function expectRead(s: SwitchScreen, film?: number): Promise<void> {
  const { png, truths } = await switchScreen(s);
  const image = film === undefined ? await decodeRgb(png) : await filmScreenshot(png, film);
  const found = findSwitches(image);
  for (const t of truths)
    expect(switchAt(found, t.box)?.on, `${JSON.stringify(s)} at ${t.box[1]}`).toBe(t.on);
  expect(found, JSON.stringify(s)).toHaveLength(truths.length);
}

describe("findSwitches on a switch cut by the bottom edge, from UISwitch's shape", () => {
  it("reads a lone cut switch, on or off, with no whole one of its colour above", async () => {
    // Before: `switches-cut.ts` wanted a whole switch of the same track colour in the same column.
    await expectRead({
      mode: "light",
      shape: "classic",
      tint: GREEN,
      rows: [],
      cut: { on: true, shown: 0.55 },
    });
    await expectRead({
      mode: "light",
      shape: "classic",
      tint: GREEN,
      rows: [],
      cut: { on: false, shown: 0.4 },
    });
    await expectRead({
      mode: "light",
      shape: "classic",
      tint: "#AF52DE",
      rows: [false],
      cut: { on: true, shown: 0.8 },
    });
    await expectRead({
      mode: "dark",
      shape: "classic",
      tint: DARK_GREEN,
      rows: [false],
      cut: { on: true, shown: 0.5 },
    });
  }, 120_000);

  it("reads a cut iOS 26 switch (64×28 pt, pill knob) and one on a half-size screenshot", async () => {
    await expectRead({ mode: "light", shape: "glass", tint: GREEN, rows: [], cut: { on: true, shown: 0.6 } });
    await expectRead({
      mode: "light",
      shape: "classic",
      tint: GREEN,
      rows: [true],
      cut: { on: false, shown: 0.6 },
      width: 375,
      scale: 1,
    });
  }, 120_000);

  it("reads a switch cut low, most of it showing, on or off (its runs read above the last row)", async () => {
    // Before: only the last grid row was read, where a switch showing ≥ 85% has hardly any knob left
    // (the knob is inset 2 pt and the capsule's round bottom narrows both runs): listed `[icon]`.
    for (const shown of [0.87, 0.93, 0.97])
      for (const on of [false, true])
        await expectRead({
          mode: "light",
          shape: "classic",
          tint: "#8B4FD6",
          rows: [true],
          cut: { on, shown },
        });
    await expectRead({
      mode: "light",
      shape: "classic",
      tint: GREEN,
      rows: [true, false],
      cut: { on: false, shown: 0.93 },
      width: 414,
    });
  }, 300_000);

  it("takes no capsule button or segmented control cut low, most of it showing, for a switch", async () => {
    const W = 390;
    const H = 844;
    let svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W * 3}" height="${H * 3}" viewBox="0 0 ${W} ${H}"><rect width="${W}" height="${H}" fill="#F2F2F7"/>`;
    // A green GET button and a grey two-segment control with its white selected segment, 90% showing.
    svg += `<rect x="300" y="${H - 27}" width="72" height="30" rx="15" fill="${GREEN}"/><text x="316" y="${H - 6}" font-family="sans-serif" font-size="17" font-weight="bold" fill="#FFF">GET</text>`;
    svg += `<rect x="150" y="${H - 29}" width="90" height="32" rx="9" fill="#E3E3E8"/><rect x="152" y="${H - 27}" width="44" height="28" rx="7" fill="#FFF"/>`;
    svg += `<rect x="40" y="${H - 28}" width="51" height="31" rx="15.5" fill="#E9E9EA"/><text x="51" y="${H - 7}" font-family="sans-serif" font-size="15" fill="#FFF">New</text>`;
    const png = await sharp(Buffer.from(`${svg}</svg>`))
      .png()
      .toBuffer();
    expect(findSwitches(await decodeRgb(png))).toEqual([]);
    for (const seed of [1, 2])
      expect(findSwitches(await filmScreenshot(png, seed)), `seed ${seed}`).toEqual([]);
  }, 120_000);

  it("takes no capsule button, card or field cut by the bottom edge for a switch", async () => {
    const W = 390;
    const H = 844;
    let svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W * 3}" height="${H * 3}" viewBox="0 0 ${W} ${H}"><rect width="${W}" height="${H}" fill="#F2F2F7"/>`;
    // Green capsule buttons with white text (centred, and set high), a grey capsule with a white pill
    // in it (a segmented control's selected segment), a white card.
    svg += `<rect x="300" y="${H - 14}" width="72" height="30" rx="15" fill="${GREEN}"/><text x="316" y="${H + 7}" font-family="sans-serif" font-size="17" font-weight="bold" fill="#FFF">GET</text>`;
    svg += `<rect x="70" y="${H - 14}" width="72" height="30" rx="15" fill="${GREEN}"/><text x="86" y="${H - 1}" font-family="sans-serif" font-size="17" font-weight="bold" fill="#FFF">GET</text>`;
    svg += `<rect x="150" y="${H - 16}" width="120" height="36" rx="18" fill="#E3E3E8"/><rect x="154" y="${H - 13}" width="50" height="30" rx="15" fill="#FFF"/>`;
    svg += `<rect x="16" y="${H - 20}" width="44" height="60" rx="10" fill="#FFF"/>`;
    const png = await sharp(Buffer.from(`${svg}</svg>`))
      .png()
      .toBuffer();
    expect(findSwitches(await decodeRgb(png))).toEqual([]);
  }, 60_000);
});
