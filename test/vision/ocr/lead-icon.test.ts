import { describe, expect, it } from "vitest";
import { leadingIcon } from "../../../src/vision/ocr/lead-icon.js";
import { loadRealImage } from "../real-set.js";

/** A line's ink box (image pixels), its text and where its first space was read, on a real screenshot. */
const box = (x0: number, y0: number, x1: number, y1: number) => ({ x0, y0, x1, y1, score: 1 });

describe("leadingIcon on real screenshots", () => {
  it("finds icons read as a first character: a favicon tile, a tyre, the location arrow, a triangle", async () => {
    const cases: [string, ReturnType<typeof box>, string, number][] = [
      ["rc-netnewswire-feeds-light.png", box(95, 1582, 420, 1656), "K kottke.org", 181],
      ["rc-netnewswire-feeds-dark.png", box(107, 1778, 432, 1852), "K kottke.org", 193],
      ["rd-fordpass-home-widget-dark.jpg", box(534, 772, 783, 815), "0 Tires (psi)", 571],
      ["ra-rndocs-location-alert.png", box(82, 385, 258, 408), "1 Precise: On", 106],
      ["rd-zkytech-https-capture-zh.png", box(37, 104, 137, 136), "· 搜索", 71],
    ];
    for (const [name, line, text, spaceX] of cases)
      expect(leadingIcon(await loadRealImage(name), line, text, spaceX), text).toBe(true);
  });

  it("keeps real first characters: digits, a capital, a dot marker, two glyphs before the space", async () => {
    const cases: [string, ReturnType<typeof box>, string, number][] = [
      ["ra-azura-sleep-timer-menu.png", box(546, 1518, 698, 1560), "1 hour", 575],
      ["ra-azura-sleep-timer-menu.png", box(528, 1863, 715, 1905), "2 hours", 562],
      ["ra-tp-calendar-new-event.png", box(419, 351, 717, 377), "9 Mar 2021 06:09", 443],
      ["rc-yattee-home-compact.png", box(193, 721, 410, 750), "0 bookmarks", 219],
      [
        "rc-netnewswire-timeline-light.png",
        box(241, 1500, 1029, 1550),
        "A collection of thousands of pho-",
        280,
      ],
      ["rb-messagekit-chat-media.png", box(582, 942, 779, 992), ". Chihuahua", 602],
      ["rc-bingpaper-list-dark.jpg", box(208, 615, 450, 635), "J R Eyerman/Shutterstock", 241],
    ];
    for (const [name, line, text, spaceX] of cases)
      expect(leadingIcon(await loadRealImage(name), line, text, spaceX), text).toBe(false);
  });
});
