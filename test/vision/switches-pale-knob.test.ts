import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { decodeRgb } from "../../src/vision/rectify.js";
import { findSwitches } from "../../src/vision/switches.js";
import { switchAt, switchScreen } from "./switch-synth.js";

describe("findSwitches on a dark cell with a pale knob", () => {
  it("reads on and off switches whose knob is light grey, not white (#C7C7CC, #AEAEB2)", async () => {
    // Before: a knob had to be ≥ 200 in every channel, so a dark-mode screenshot saved with dimmed
    // levels (its white knob #C7C7CC) was listed `[icon]`.
    for (const knob of ["#C7C7CC", "#AEAEB2"])
      for (const tint of ["#30D158", "#34C759"]) {
        const { png, truths } = await switchScreen({
          mode: "dark",
          shape: "classic",
          tint,
          rows: [true, false, true],
          knob,
        });
        const found = findSwitches(await decodeRgb(png));
        for (const t of truths)
          expect(switchAt(found, t.box)?.on, `${knob} ${tint} at ${t.box[1]}`).toBe(t.on);
        expect(found, `${knob} ${tint}`).toHaveLength(truths.length);
      }
  }, 120_000);

  it("takes no grey disc beside a green capsule, nor a grey knob on a light cell, for a switch", async () => {
    const W = 390;
    const H = 844;
    let svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W * 3}" height="${H * 3}" viewBox="0 0 ${W} ${H}"><rect width="${W}" height="${H}" fill="#1C1C1E"/>`;
    // An avatar disc touching a green capsule badge; a grey disc inside a dark grey capsule (no tint).
    svg += `<circle cx="290" cy="150" r="14" fill="#AEAEB2"/><rect x="304" y="135" width="40" height="30" rx="15" fill="#30D158"/>`;
    svg += `<rect x="290" y="250" width="51" height="31" rx="15.5" fill="#3A3A3C"/><circle cx="305.5" cy="265.5" r="13.5" fill="#48484A"/>`;
    svg += `<rect y="400" width="${W}" height="200" fill="#FFFFFF"/><rect x="290" y="450" width="51" height="31" rx="15.5" fill="#34C759"/><circle cx="325.5" cy="465.5" r="13.5" fill="#C7C7CC"/>`;
    const png = await sharp(Buffer.from(`${svg}</svg>`))
      .png()
      .toBuffer();
    expect(findSwitches(await decodeRgb(png))).toEqual([]);
  }, 60_000);
});
