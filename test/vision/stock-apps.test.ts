import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { realScreenSchema } from "../../src/lab/real/labels.js";
import type { FracBox } from "../../src/shared/box.js";
import type { RgbImage } from "../../src/shared/image.js";
import { decodeRgb } from "../../src/vision/rectify.js";
import type { Candidate } from "../../src/vision/row.js";
import { nameStockApp, nameStockApps } from "../../src/vision/stock-apps.js";
import { makePhone, PASSCODE } from "../sim/phone/helpers.js";

const DATASET = join(import.meta.dirname, "..", "..", "datasets", "real-iphone");

/** A 390×844 pt screen at 3 px/pt, dark grey, with one 60 pt tile at (x, y) pt painted by `paint`(u, v). */
function screenWithTile(
  x: number,
  y: number,
  bg: [number, number, number],
  ink: (u: number, v: number) => boolean,
): RgbImage {
  const [width, height] = [1170, 2532];
  const data = Buffer.alloc(width * height * 3, 40);
  const size = 180;
  for (let j = 0; j < size; j++)
    for (let i = 0; i < size; i++) {
      const u = (i + 0.5) / size;
      const v = (j + 0.5) / size;
      const du = Math.max(0, Math.abs(u - 0.5) - 0.275);
      const dv = Math.max(0, Math.abs(v - 0.5) - 0.275);
      if (du * du + dv * dv > 0.225 ** 2) continue;
      data.set(ink(u, v) ? [255, 255, 255] : bg, ((y * 3 + j) * width + x * 3 + i) * 3);
    }
  return { width, height, channels: 3, data };
}
const TILE: FracBox = [27 / 390, 700 / 844, 87 / 390, 760 / 844];
const GREEN: [number, number, number] = [52, 199, 89];
const inEllipse = (u: number, v: number, cx: number, cy: number, rx: number, ry: number) =>
  ((u - cx) / rx) ** 2 + ((v - cy) / ry) ** 2 <= 1;

describe("nameStockApp", () => {
  it("names a solid wide bubble on green Messages, and leaves green look-alikes unnamed", () => {
    const bubble = screenWithTile(27, 700, GREEN, (u, v) => inEllipse(u, v, 0.5, 0.47, 0.33, 0.26));
    expect(nameStockApp(bubble, TILE)).toBe("Messages");
    // FaceTime's video camera: a rounded rectangle, its corners filled.
    const camera = screenWithTile(27, 700, GREEN, (u, v) => u > 0.18 && u < 0.62 && v > 0.33 && v < 0.67);
    expect(nameStockApp(camera, TILE)).toBeUndefined();
    // WhatsApp-like: an outlined bubble (a ring).
    const ring = screenWithTile(
      27,
      700,
      GREEN,
      (u, v) => inEllipse(u, v, 0.5, 0.5, 0.33, 0.3) && !inEllipse(u, v, 0.5, 0.5, 0.27, 0.24),
    );
    expect(nameStockApp(ring, TILE)).toBeUndefined();
    // WeChat/LINE-like: a bubble with holes in it.
    const holes = screenWithTile(
      27,
      700,
      GREEN,
      (u, v) => inEllipse(u, v, 0.5, 0.47, 0.33, 0.26) && !inEllipse(u, v, 0.4, 0.45, 0.05, 0.05),
    );
    expect(nameStockApp(holes, TILE)).toBeUndefined();
    // The same bubble on a grey or orange tile is no stock app we name.
    expect(
      nameStockApp(
        screenWithTile(27, 700, [255, 149, 0], (u, v) => inEllipse(u, v, 0.5, 0.47, 0.33, 0.26)),
        TILE,
      ),
    ).toBeUndefined();
  });

  it("says nothing for tiles too small to see or not square", () => {
    const bubble = screenWithTile(27, 700, GREEN, (u, v) => inEllipse(u, v, 0.5, 0.47, 0.33, 0.26));
    expect(nameStockApp(bubble, [27 / 390, 700 / 844, 30 / 390, 703 / 844])).toBeUndefined();
    expect(nameStockApp(bubble, [27 / 390, 700 / 844, 87 / 390, 720 / 844])).toBeUndefined();
  });

  it("nameStockApps names unnamed tile rows (a box a little inside the tile too) and leaves others alone", () => {
    const bubble = screenWithTile(27, 700, GREEN, (u, v) => inEllipse(u, v, 0.5, 0.47, 0.33, 0.26));
    const inset = 0.07 * (TILE[2] - TILE[0]);
    const insetY = 0.07 * (TILE[3] - TILE[1]);
    const inner: FracBox = [TILE[0] + inset, TILE[1] + insetY, TILE[2] - inset, TILE[3] - insetY];
    const rows: Candidate[] = [
      { kind: "icon", label: "", box: inner, conf: 0.8 },
      { kind: "app", label: "Chat", box: TILE, conf: 0.8 },
      { kind: "text", label: "", box: TILE, conf: 0.8 },
    ];
    expect(nameStockApps(bubble, rows).map((r) => `${r.kind} ${r.label}`)).toEqual([
      "app Messages",
      "app Chat",
      "text ",
    ]);
  });

  it("names the simulated phone's dock and never mis-names a home-screen icon", async () => {
    const { phone, finger } = makePhone();
    finger.unlock(PASSCODE);
    const screen = await decodeRgb(await phone.screenshot());
    const icons = phone.truth().elements.filter((e) => e.id.startsWith("home.icon."));
    const names = new Map(icons.map((e) => [e.label, nameStockApp(screen, e.box)]));
    expect(names.get("Phone")).toBe("Phone");
    expect(names.get("Safari")).toBe("Safari");
    expect(names.get("Messages")).toBe("Messages");
    expect(names.get("Mail")).toBe("Mail");
    for (const [label, name] of names) if (name !== undefined) expect(name).toBe(label);
    // The listing pass: the dock's unnamed icon rows become app rows.
    const rows: Candidate[] = icons.map((e) => ({ kind: "icon", label: "", box: e.box, conf: 0.8 }));
    const out = nameStockApps(screen, rows);
    expect(out.filter((r) => r.kind === "app").map((r) => r.label)).toEqual(
      expect.arrayContaining(["Phone", "Safari", "Messages"]),
    );
  });

  it("on real screenshots: every name given is the labelled app's, and no other element is named", async () => {
    let named = 0;
    for (const file of readdirSync(join(DATASET, "labels")).filter((f) => f.endsWith(".json"))) {
      const label = realScreenSchema.parse(JSON.parse(readFileSync(join(DATASET, "labels", file), "utf8")));
      if (!label.elements.some((e) => e.kind === "app")) continue;
      const screen = await decodeRgb(readFileSync(join(DATASET, "images", label.image)));
      for (const e of label.elements) {
        const name = nameStockApp(screen, e.box);
        if (name === undefined) continue;
        named++;
        // A Chinese phone's Messages is 信息; the name given is the English one.
        expect(`${file} ${e.kind} ${e.label === "信息" ? "Messages" : e.label}`).toBe(`${file} app ${name}`);
      }
    }
    // 18 of the 19 stock tiles in the set (Phone, Messages, Safari, Mail, Photos) on 2026-11-27.
    expect(named).toBeGreaterThanOrEqual(16);
  }, 60_000);
});
