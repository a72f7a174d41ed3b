import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { RawImage } from "../../../src/shared/image.js";
import { seedThreads } from "../../../src/sim/phone/state.js";
import { STRINGS } from "../../../src/sim/phone/strings.js";
import type { ScreenElement } from "../../../src/sim/types.js";
import { el, fonts, makePhone, PASSCODE } from "./helpers.js";

/** Ink mask (bright text on the dark wallpaper) of an element's box, sampled on a fixed grid. */
function inkMask(img: RawImage, e: ScreenElement, grid = 48): boolean[] {
  const mask: boolean[] = [];
  const [l, t, r, b] = e.box;
  for (let j = 0; j < grid; j++)
    for (let i = 0; i < grid; i++) {
      const x = Math.floor((l + ((r - l) * (i + 0.5)) / grid) * img.width);
      const y = Math.floor((t + ((b - t) * (j + 0.5)) / grid) * img.height);
      const o = (y * img.width + x) * img.channels;
      const lum =
        0.299 * (img.data[o] ?? 0) + 0.587 * (img.data[o + 1] ?? 0) + 0.114 * (img.data[o + 2] ?? 0);
      mask.push(lum > 160);
    }
  return mask;
}

const coverage = (m: boolean[]): number => m.filter(Boolean).length / m.length;

describe("rendering", () => {
  it("renders RGBA at the panel size; the PNG screenshot decodes to the same pixels; frames are cached", async () => {
    const { phone, clock } = makePhone();
    const img = await phone.renderScreen();
    expect([img.width, img.height, img.channels]).toEqual([1170, 2532, 4]);
    expect(img.data.length).toBe(1170 * 2532 * 4);
    const png = await phone.screenshot();
    const decoded = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([decoded.info.width, decoded.info.height]).toEqual([1170, 2532]);
    expect(decoded.data.equals(img.data)).toBe(true);
    // Same state, same clock reading → same frame object, same version.
    const v = phone.version;
    expect(await phone.renderScreen()).toBe(img);
    clock.advance(1000); // the lock screen shows minutes: no visual change yet
    expect(phone.version).toBe(v);
    expect(await phone.renderScreen()).toBe(img);
    clock.advance(60_000);
    expect(phone.version).toBe(v + 1);
    expect(el(phone, "lock.time").label).toBe("9:42");
    const next = await phone.renderScreen();
    expect(next).not.toBe(img);
    expect(next.data.equals(img.data)).toBe(false);
  });

  it("renders the screen black when off", async () => {
    const { phone } = makePhone();
    phone.pressSideButton();
    const img = await phone.renderScreen();
    let max = 0;
    for (let i = 0; i < img.data.length; i += 4 * 997)
      max = Math.max(max, img.data[i] ?? 0, img.data[i + 1] ?? 0, img.data[i + 2] ?? 0);
    expect(max).toBe(0);
  });
});

describe("Chinese locale", () => {
  it("the shipped fonts draw every string of the zh table and the zh seed conversations", () => {
    const all = [
      ...Object.values(STRINGS.zh),
      ...seedThreads("zh", 0).flatMap((t) => [t.name, ...t.messages.map((m) => m.text)]),
    ];
    for (const weight of ["light", "regular", "semibold"] as const) {
      const missing = all.flatMap((s) => fonts.missingGlyphs(s, weight));
      expect(missing, weight).toEqual([]);
    }
    expect(Object.keys(STRINGS.zh).sort()).toEqual(Object.keys(STRINGS.en).sort());
  });

  it("draws real hanzi: two different labels have different, plausible ink inside their text boxes", async () => {
    const zh = makePhone({ locale: "zh" });
    zh.finger.unlock(PASSCODE);
    const img = await zh.phone.renderScreen();
    const clockLabel = el(zh.phone, "home.label.clock");
    const settingsLabel = el(zh.phone, "home.label.settings");
    expect(clockLabel.label).toBe("时钟");
    expect(settingsLabel.label).toBe("设置");
    const a = inkMask(img, clockLabel);
    const b = inkMask(img, settingsLabel);
    for (const m of [a, b]) {
      expect(coverage(m)).toBeGreaterThan(0.08);
      expect(coverage(m)).toBeLessThan(0.6);
    }
    const differing = a.filter((v, i) => v !== b[i]).length / a.length;
    expect(differing).toBeGreaterThan(0.1);
    // A tofu box is an outline: its ink sits on the border. Hanzi have ink in the middle too.
    const centre = a.filter((v, i) => {
      const x = i % 48;
      const y = Math.floor(i / 48);
      return v && x > 12 && x < 36 && y > 12 && y < 36;
    }).length;
    expect(centre).toBeGreaterThan(20);
  });
});
