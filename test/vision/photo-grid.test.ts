import { describe, expect, it } from "vitest";
import { applyPhotoGrid, findPhotoGrid } from "../../src/vision/photo-grid.js";
import { loadRealImage, realLabel } from "./real-set.js";

const label = realLabel;
const inBox = (b: readonly number[], x: number, y: number): boolean =>
  x >= (b[0] as number) && x <= (b[2] as number) && y >= (b[1] as number) && y <= (b[3] as number);

describe("findPhotoGrid", () => {
  it("lists every thumbnail and select circle of a real photo picker, with the circle's state", async () => {
    const name = "ra-tzimagepicker-grid-zh.png";
    const screen = await loadRealImage(name);
    const truth = label(name);
    // The clips' duration bars as OCR would give them: those thumbnails are videos.
    const durations = truth.text
      .filter((t) => /^\d:\d\d$/.test(t.text))
      .map((t) => ({ kind: "text" as const, label: t.text, box: t.box, conf: 1 }));
    expect(durations.length).toBe(2);
    const rows = applyPhotoGrid(screen, durations);
    const photos = truth.elements.filter((e) => e.kind === "other" && /photo|video/.test(e.label));
    const circles = truth.elements.filter((e) => e.kind === "checkbox" && e.label === "select");
    expect(photos.length).toBeGreaterThan(15);
    for (const p of photos)
      expect(
        rows.filter(
          (r) => r.kind === "button" && inBox(p.box, (r.box[0] + r.box[2]) / 2, (r.box[1] + r.box[3]) / 2),
        ),
      ).toHaveLength(1);
    for (const c of circles) {
      const on = rows.filter(
        (r) => r.kind === "checkbox" && inBox(c.box, (r.box[0] + r.box[2]) / 2, (r.box[1] + r.box[3]) / 2),
      );
      expect(on.map((r) => r.state)).toEqual([c.state]);
    }
    expect(rows.filter((r) => r.label === "video")).toHaveLength(2);
    expect(rows.filter((r) => r.kind === "text")).toHaveLength(2);
  });

  it("finds no grid on screens of app icons, keys, round buttons or lists", async () => {
    for (const name of [
      "rb-callkeep-incoming.png",
      "rd-homewidget-home-widget.png",
      "rb-twilio-dial-view.png",
      "rc-netnewswire-timeline-dark.png",
      "rd-zkytech-scriptable-list.jpg",
    ])
      expect(findPhotoGrid(await loadRealImage(name)), name).toEqual([]);
  });
});
