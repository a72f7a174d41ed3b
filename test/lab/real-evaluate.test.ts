import { describe, expect, it } from "vitest";
import { keyMatches, lineLang, type ScoredRow, scoreRealScreen } from "../../src/lab/real/evaluate.js";
import { type RealScreen, realScreenSchema } from "../../src/lab/real/labels.js";
import { realTables, summariseReal } from "../../src/lab/real/report.js";

/**
 * A hand-made Settings-like screen: a status bar, a title, two rows (one with a switch on, one off), a
 * keyboard row of three keys, an icon-only "add" button, and a dock app whose name is under its icon.
 */
const screen: RealScreen = realScreenSchema.parse({
  image: "settings.png",
  width: 1170,
  height: 2532,
  lang: "mixed",
  theme: "light",
  screen: "settings",
  statusBar: [0, 0, 1, 0.05],
  text: [
    { text: "Settings", box: [0.05, 0.08, 0.4, 0.11] },
    { text: "Wi-Fi", box: [0.1, 0.2, 0.25, 0.22] },
    { text: "蓝牙", box: [0.1, 0.3, 0.2, 0.32] },
    { text: "q", box: [0.04, 0.8, 0.07, 0.82] },
    { text: "w", box: [0.14, 0.8, 0.17, 0.82] },
    { text: "Mail", box: [0.6, 0.95, 0.7, 0.97] },
  ],
  elements: [
    { kind: "row", label: "Wi-Fi", box: [0, 0.18, 1, 0.24] },
    { kind: "switch", label: "Wi-Fi", state: "on", box: [0.8, 0.19, 0.95, 0.23] },
    { kind: "row", label: "蓝牙", box: [0, 0.28, 1, 0.34] },
    { kind: "switch", label: "蓝牙", state: "off", box: [0.8, 0.29, 0.95, 0.33] },
    { kind: "key", label: "q", char: "q", box: [0, 0.78, 0.1, 0.84] },
    { kind: "key", label: "w", char: "w", box: [0.1, 0.78, 0.2, 0.84] },
    { kind: "key", label: "space", char: "space", box: [0.2, 0.88, 0.55, 0.92] },
    { kind: "button", label: "add", iconOnly: true, box: [0.85, 0.07, 0.95, 0.12] },
    { kind: "app", label: "Mail", iconOnly: true, box: [0.6, 0.88, 0.7, 0.94] },
  ],
});

const row = (kind: string, label: string, box: ScoredRow["box"], state?: string): ScoredRow => ({
  kind,
  label,
  box,
  ...(state ? { state } : {}),
});

describe("scoreRealScreen", () => {
  it("a perfect listing scores every measure full and nothing spurious", () => {
    const rows = [
      row("status", "", [0.02, 0.01, 0.98, 0.04]),
      row("text", "Settings", [0.05, 0.08, 0.4, 0.11]),
      row("button", "add", [0.86, 0.08, 0.94, 0.11]),
      row("text", "Wi-Fi", [0.1, 0.2, 0.25, 0.22]),
      row("switch", "Wi-Fi", [0.8, 0.19, 0.95, 0.23], "on"),
      row("text", "蓝牙", [0.1, 0.3, 0.2, 0.32]),
      row("switch", "蓝牙", [0.8, 0.29, 0.95, 0.33], "off"),
      row("key", "q", [0.01, 0.79, 0.09, 0.83]),
      row("key", "w", [0.11, 0.79, 0.19, 0.83]),
      row("key", "space", [0.21, 0.885, 0.54, 0.915]),
      row("app", "Mail", [0.61, 0.885, 0.69, 0.935]),
      row("text", "Mail", [0.6, 0.95, 0.7, 0.97]),
    ];
    const s = scoreRealScreen(screen, rows);
    expect(s.misses).toEqual([]);
    expect(s.text.all).toEqual({ truths: 6, found: 6, exact: 6, edits: 0, chars: 21 });
    expect(s.text.zh?.truths).toBe(1); // the mixed screen's CJK line
    expect(s.text.en?.truths).toBe(5);
    // Each table row is found through its text row ("Wi-Fi" lands on the Wi-Fi row).
    expect(s.elements.all).toEqual({ truths: 9, found: 9, right: 9, own: 9, named: 9 });
    expect(s.elements["kind=switch"]?.right).toBe(2);
    expect(s.elements.iconOnly?.truths).toBe(2);
    expect(s.rows).toEqual({
      rows: 12,
      spanning: 0,
      spurious: 0,
      statusRows: 1,
      statusOther: 0,
      unlabelledArea: 0,
    });
  });

  it("today's kinds: keys and switches are found but never right; icon rows are found unnamed", () => {
    const rows = [
      row("icon", "", [0.86, 0.08, 0.94, 0.11]),
      row("text", "Wi-Fi", [0.1, 0.2, 0.25, 0.22]),
      row("icon", "", [0.8, 0.19, 0.95, 0.23]),
      row("text", "q", [0.04, 0.8, 0.07, 0.82]),
      row("icon", "", [0.61, 0.885, 0.69, 0.935]),
    ];
    const s = scoreRealScreen(screen, rows);
    expect(s.elements["kind=key"]).toEqual({ truths: 3, found: 1, right: 0, own: 1, named: 1 });
    expect(s.elements["kind=switch"]).toEqual({ truths: 2, found: 1, right: 0, own: 1, named: 0 });
    expect(s.elements["kind=app"]).toEqual({ truths: 1, found: 1, right: 1, own: 1, named: 0 });
    expect(s.elements["kind=button"]?.named).toBe(0);
    expect(s.misses).toContain('switch #1 "Wi-Fi" on: rows [icon] ""');
  });

  it("a switch row in the wrong state and a key row with the wrong character are not right", () => {
    const s = scoreRealScreen(screen, [
      row("switch", "Wi-Fi", [0.8, 0.19, 0.95, 0.23], "off"),
      row("key", "Q", [0.01, 0.79, 0.09, 0.83]),
      row("key", "e", [0.11, 0.79, 0.19, 0.83]),
    ]);
    expect(s.elements["kind=switch"]?.right).toBe(0);
    expect(s.elements["kind=key"]?.found).toBe(2);
    expect(s.elements["kind=key"]?.right).toBe(1); // "Q" types q (case-insensitive); "e" is not "w"
  });

  it("counts a row over two targets, strict and loose text, CER on found lines, spurious rows", () => {
    const s = scoreRealScreen(screen, [
      row("text", "Setings", [0.05, 0.08, 0.4, 0.11]),
      row("text", "q w", [0.02, 0.79, 0.18, 0.83]), // one box over two keys
      row("icon", "", [0.4, 0.5, 0.45, 0.52]), // on nothing
      row("icon", "", [0.3, 0.01, 0.35, 0.04]), // a status-bar glyph
    ]);
    // "Setings" costs one edit; the merged "q w" lands on "q" and reads it with one extra character.
    expect(s.text.all).toMatchObject({ truths: 6, found: 2, exact: 0, edits: 2, chars: 9 });
    expect(s.rows).toEqual({
      rows: 4,
      spanning: 1,
      spurious: 1,
      statusRows: 0,
      statusOther: 1,
      unlabelledArea: 0,
    });
    // The merged row's centre lands on one key (found), but that key has no row of its own.
    expect(s.elements["kind=key"]).toMatchObject({ found: 1, own: 0 });
  });

  it("a row on nothing inside an area the label leaves unlabelled is counted apart, not spurious", () => {
    const mapped = realScreenSchema.parse({
      ...screen,
      unlabelled: [{ box: [0.3, 0.4, 0.7, 0.7], why: "map pins, each tappable, not labelled" }],
    });
    const rows = [
      row("icon", "", [0.4, 0.5, 0.45, 0.52]), // a pin in the area
      row("icon", "", [0.1, 0.5, 0.15, 0.52]), // on nothing, outside it
      row("button", "add", [0.86, 0.08, 0.94, 0.11]),
    ];
    const s = scoreRealScreen(mapped, rows);
    expect(s.rows).toMatchObject({ rows: 3, spurious: 1, unlabelledArea: 1 });
    expect(scoreRealScreen(screen, rows).rows).toMatchObject({ spurious: 2, unlabelledArea: 0 });
    expect(s.elements.iconOnly).toMatchObject({ found: 1 }); // what is labelled is scored as before
  });

  it("a nested target (a switch in its table row) is one target, and a name listed twice reads once", () => {
    const s = scoreRealScreen(screen, [
      row("text", "Wi-Fi", [0.1, 0.2, 0.25, 0.22]),
      row("switch", "Wi-Fi", [0.7, 0.185, 0.97, 0.235], "on"),
      row("app", "Mail", [0.58, 0.88, 0.72, 0.975]), // the icon and its name in one box
      row("text", "Mail", [0.6, 0.95, 0.7, 0.97]),
    ]);
    expect(s.rows.spanning).toBe(0);
    expect(s.text.all).toMatchObject({ found: 2, exact: 2 });
  });

  it("reads a row's text at its labelBox: a keypad key's digit and the letters under it are two lines", () => {
    const pad = realScreenSchema.parse({
      ...screen,
      text: [
        { text: "2", box: [0.45, 0.6, 0.55, 0.63] },
        { text: "ABC", box: [0.46, 0.635, 0.54, 0.645] },
      ],
      elements: [{ kind: "key", label: "2 ABC", char: "2", box: [0.35, 0.58, 0.65, 0.66] }],
    });
    const key: ScoredRow = {
      ...row("key", "2", [0.36, 0.585, 0.64, 0.655]),
      labelBox: [0.45, 0.6, 0.55, 0.63],
    };
    const letters = row("text", "ABC", [0.46, 0.635, 0.54, 0.645]);
    expect(scoreRealScreen(pad, [key, letters]).text.all).toMatchObject({ found: 2, exact: 2 });
    // Placed at its cap, the key row lands on the smaller line (the letters) and the digit goes unread.
    const { labelBox: _, ...atCap } = key;
    expect(scoreRealScreen(pad, [atCap, letters]).text.all).toMatchObject({ found: 1 });
    expect(scoreRealScreen(pad, [key, letters]).elements["kind=key"]).toMatchObject({ right: 1 });
  });
});

describe("helpers", () => {
  it("keys compare letters case-insensitively and know space by either name", () => {
    expect(keyMatches("q", "Q")).toBe(true);
    expect(keyMatches(" ", "space")).toBe(true);
    expect(keyMatches("#", "#")).toBe(true);
    expect(keyMatches("1", "7")).toBe(false);
  });

  it("lines of mixed screens are zh when they hold a CJK character", () => {
    expect(lineLang("en", "设置")).toBe("en");
    expect(lineLang("mixed", "设置 Wi-Fi")).toBe("zh");
    expect(lineLang("other", "Wi-Fi")).toBe("en");
  });
});

describe("summariseReal / realTables", () => {
  it("sums screens and prints the goals beside the numbers", () => {
    const perfect = scoreRealScreen(screen, [row("text", "Settings", [0.05, 0.08, 0.4, 0.11])]);
    const sum = summariseReal([perfect, perfect]);
    expect(sum.screens).toBe(2);
    expect(sum.text.all).toMatchObject({ truths: 12, found: 2, exact: 2 });
    expect(sum.text.all?.strict).toBeCloseTo(2 / 12);
    expect(sum.elements.all?.truths).toBe(18);
    const md = realTables(sum);
    expect(md).toContain("| all | 12 | 16.7% | **16.7%** | 0.0% |");
    expect(md).toContain("right state 100%");
  });
});
