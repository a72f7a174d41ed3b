import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { formatEntry } from "../../src/vision/listing.js";
import { decodeRgb } from "../../src/vision/rectify.js";
import { type FoundSwitch, findSwitches } from "../../src/vision/switches.js";
import { filmScreenshot } from "./ocr/filmed-real.js";

interface Truth {
  on: boolean;
  enabled: boolean;
  box: [number, number, number, number];
}

/**
 * A Settings list (inset grouped: #F2F2F7 / black page, white / #1C1C1E cells) of UISwitches at UIKit's
 * metrics — a 51×31 pt track, a 27 pt white knob inset 2 pt with its soft shadow; off track #E9E9EA
 * (light) / #39393D (dark), on #34C759 / #30D158 — every state enabled and disabled. A disabled control
 * "draws itself with a dimmed appearance" (UIKit `UIControl.State.disabled`): the whole switch composited
 * at half opacity over its cell, as an SVG group with `opacity="0.5"` draws it.
 */
async function settings(dark: boolean, scale: number): Promise<{ png: Buffer; truths: Truth[] }> {
  const W = 393;
  const H = 852;
  const page = dark ? "#000000" : "#F2F2F7";
  const cellColour = dark ? "#1C1C1E" : "#FFFFFF";
  const offTrack = dark ? "#39393D" : "#E9E9EA";
  const onTrack = dark ? "#30D158" : "#34C759";
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W * scale}" height="${H * scale}" viewBox="0 0 ${W} ${H}">`;
  svg += `<defs><filter id="s" x="-50%" y="-50%" width="200%" height="200%"><feDropShadow dx="0" dy="3" stdDeviation="4" flood-color="#000" flood-opacity="0.15"/></filter></defs>`;
  svg += `<rect width="${W}" height="${H}" fill="${page}"/>`;
  const truths: Truth[] = [];
  let i = 0;
  for (const on of [false, true])
    for (const enabled of [true, false]) {
      const y = 120 + i * 120;
      i++;
      const x = W - 16 - 16 - 51;
      svg += `<rect x="16" y="${y - 6.5}" width="${W - 32}" height="44" rx="10" fill="${cellColour}"/>`;
      svg += `<text x="32" y="${y + 21}" font-family="sans-serif" font-size="17" fill="${dark ? "#FFF" : "#000"}">Option ${i}</text>`;
      svg += `<g opacity="${enabled ? 1 : 0.5}"><rect x="${x}" y="${y}" width="51" height="31" rx="15.5" fill="${on ? onTrack : offTrack}"/>`;
      svg += `<circle cx="${on ? x + 51 - 15.5 : x + 15.5}" cy="${y + 15.5}" r="13.5" fill="#FFF" filter="url(#s)"/></g>`;
      truths.push({ on, enabled, box: [x / W, y / H, (x + 51) / W, (y + 31) / H] });
    }
  svg += "</svg>";
  return { png: await sharp(Buffer.from(svg)).png().toBuffer(), truths };
}

const at = (found: readonly FoundSwitch[], t: Truth): FoundSwitch | undefined =>
  found.find((s) => {
    const [cx, cy] = [(s.box[0] + s.box[2]) / 2, (s.box[1] + s.box[3]) / 2];
    return cx > t.box[0] && cx < t.box[2] && cy > t.box[1] && cy < t.box[3];
  });

describe("findSwitches: disabled (dimmed) switches", () => {
  for (const dark of [false, true])
    for (const scale of [2, 3])
      it(`finds and reads every switch, and says which are disabled (${dark ? "dark" : "light"}, ${scale}×)`, async () => {
        const { png, truths } = await settings(dark, scale);
        const found = findSwitches(await decodeRgb(png));
        expect(found).toHaveLength(truths.length);
        for (const t of truths) {
          const s = at(found, t);
          const what = `${t.on ? "on" : "off"} ${t.enabled ? "enabled" : "disabled"}`;
          expect(s, what).toBeDefined();
          expect(s?.on, what).toBe(t.on);
          expect(s?.disabled ?? false, what).toBe(!t.enabled);
        }
      }, 120_000);

  it("reads disabled switches through the camera, and finds nothing where none is drawn", async () => {
    let right = 0;
    let total = 0;
    for (const dark of [false, true]) {
      const { png, truths } = await settings(dark, 3);
      for (const seed of [1, 2]) {
        const found = findSwitches(await filmScreenshot(png, seed));
        for (const s of found) {
          const t = truths.find((t) => at([s], t));
          expect(t, `${dark ? "dark" : "light"} seed ${seed}: a switch where none is drawn`).toBeDefined();
          expect(s.on, `${dark ? "dark" : "light"} seed ${seed}`).toBe(t?.on);
        }
        for (const t of truths.filter((t) => !t.enabled)) {
          total++;
          if (at(found, t)) right++;
        }
      }
    }
    expect(right, `${right}/${total} disabled switches read`).toBeGreaterThanOrEqual(total - 2);
  }, 300_000);

  it("lists a disabled switch with `disabled` after its state", () => {
    const row = {
      id: 3,
      kind: "switch" as const,
      label: "Wi-Fi",
      state: "off" as const,
      disabled: true as const,
    };
    expect(formatEntry({ ...row, box: [0.8, 0.3, 0.95, 0.34], conf: 0.9 })).toBe(
      '3 [switch] "Wi-Fi" off disabled [0.800,0.300,0.950,0.340] 0.90',
    );
  });
});
