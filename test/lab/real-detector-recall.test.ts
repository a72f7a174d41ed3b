import { describe, expect, it } from "vitest";
import { emptyScore, groupsOf, scoreScreen } from "../../src/lab/real/detector-recall.js";
import type { RealScreen } from "../../src/lab/real/labels.js";

const screen: RealScreen = {
  image: "x.png",
  width: 100,
  height: 200,
  lang: "en",
  theme: "light",
  screen: "settings",
  statusBar: [0, 0, 1, 0.05],
  text: [{ text: "Wi-Fi", box: [0.05, 0.1, 0.3, 0.13] }],
  elements: [
    { kind: "switch", label: "Wi-Fi", iconOnly: false, state: "off", box: [0.8, 0.1, 0.95, 0.14] },
    { kind: "button", label: "info", iconOnly: true, box: [0.6, 0.1, 0.68, 0.14] },
    { kind: "key", label: "q", iconOnly: false, char: "q", box: [0, 0.8, 0.1, 0.85] },
  ],
  notes: "",
  unlabelled: [],
};

describe("detector recall on a labelled real screen", () => {
  it("finds by centre, gives an own box only on overlap, and leaves status-bar detections out", () => {
    const score = emptyScore();
    scoreScreen(score, screen, [
      { cls: "control", box: [0.81, 0.1, 0.94, 0.14], conf: 0.9 }, // the switch, tight
      { cls: "control", box: [0.0, 0.09, 1.0, 0.15], conf: 0.8 }, // the whole row: centre on nothing labelled
      { cls: "icon", box: [0.5, 0.11, 0.76, 0.13], conf: 0.5 }, // centre in the ⓘ button, far too wide
      { cls: "icon", box: [0.9, 0.01, 0.95, 0.04], conf: 0.7 }, // battery glyph: status bar
    ]);
    expect(score.kinds.get("switch")).toEqual({ total: 1, found: 1, own: 1 });
    expect(score.kinds.get("switch off")).toEqual({ total: 1, found: 1, own: 1 });
    expect(score.kinds.get("button icon-only")).toEqual({ total: 1, found: 1, own: 0 });
    expect(score.kinds.get("key")).toEqual({ total: 1, found: 0, own: 0 });
    expect(score.kinds.get("text")).toEqual({ total: 1, found: 0, own: 0 });
    expect(score.detections.get("control")).toEqual({ total: 2, onTarget: 1 });
    expect(score.detections.get("icon")).toEqual({ total: 1, onTarget: 1 });
  });

  it("splits keys into digits and the rest, buttons by whether they carry text", () => {
    expect(groupsOf({ kind: "key", label: "", iconOnly: false, char: "#", box: [0, 0, 1, 1] })).toEqual([
      "key",
      "key digit/*/#",
    ]);
    expect(groupsOf({ kind: "button", label: "Done", iconOnly: false, box: [0, 0, 1, 1] })).toEqual([
      "button",
      "button with text",
    ]);
  });
});
