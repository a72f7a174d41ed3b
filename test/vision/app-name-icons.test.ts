import { describe, expect, it } from "vitest";
import { iconsOnAppNames } from "../../src/vision/app-name-icons.js";
import type { Candidate } from "../../src/vision/row.js";

const icon = (box: Candidate["box"]): Candidate => ({ kind: "icon", label: "", box, conf: 0.4 });
const app = (label: string, box: Candidate["box"], labelBox: Candidate["box"]): Candidate => ({
  kind: "app",
  label,
  box,
  labelBox,
  conf: 0.5,
});

describe("iconsOnAppNames", () => {
  // Boxes as the pipeline lists rd-homewidget-home-widget filmed by the camera (names measured on the frame).
  const calendar = app("Calendar", [0.538, 0.087, 0.692, 0.158], [0.552, 0.167, 0.677, 0.181]);
  const news = app("News", [0.54, 0.207, 0.69, 0.277], [0.579, 0.285, 0.651, 0.299]);

  it("drops icon boxes centred on an app's name under its tile", () => {
    const onCalendar = icon([0.453, 0.153, 0.736, 0.211]);
    const onNews = icon([0.517, 0.278, 0.725, 0.334]);
    const found = iconsOnAppNames([calendar, news, onCalendar, onNews]);
    expect(found.has(onCalendar)).toBe(true);
    expect(found.has(onNews)).toBe(true);
  });

  it("keeps an icon on a tile (a badge, the tile's own box), one beside a name, and named icons", () => {
    const onTile = icon([0.56, 0.1, 0.67, 0.15]);
    const beside = icon([0.72, 0.165, 0.76, 0.183]);
    const named: Candidate = { ...icon([0.453, 0.153, 0.736, 0.211]), kind: "button", label: "add" };
    expect(iconsOnAppNames([calendar, news, onTile, beside, named]).size).toBe(0);
  });
});
