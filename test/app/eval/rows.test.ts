import { describe, expect, it } from "vitest";
import { findRow, newestRows, parseRows } from "../../../src/app/eval/rows.js";

describe("listing rows as the scripted baseline reads them", () => {
  it("parses kinds, escaped labels, switch states and boxes; skips other lines", () => {
    const rows = parseRows(
      [
        "screen: Settings",
        '1 [text] "Wi-Fi" [0.150,0.300,0.260,0.320] 0.98',
        '2 [switch] "Wi-Fi" on [0.810,0.295,0.950,0.330] 0.93',
        '3 [text] "say \\"hi\\"" [0.1,0.5,0.4,0.52] 0.90',
      ].join("\n"),
    );
    expect(rows).toHaveLength(3);
    expect(rows[1]).toEqual({
      id: 2,
      kind: "switch",
      label: "Wi-Fi",
      state: "on",
      box: [0.81, 0.295, 0.95, 0.33],
    });
    expect(rows[2]?.label).toBe('say "hi"');
    expect(findRow(rows, "wi-fi", "switch")?.id).toBe(2);
    expect(findRow(rows, /^say/)?.id).toBe(3);
  });

  it("reads a disabled switch's state (`off disabled`)", () => {
    const rows = parseRows('4 [switch] "Bluetooth" off disabled [0.810,0.395,0.950,0.430] 0.90');
    expect(rows[0]?.state).toBe("off");
    expect(rows[0]?.box).toEqual([0.81, 0.395, 0.95, 0.43]);
  });

  it("takes the newest listing from tool results, not from the model's own messages", () => {
    const older = '1 [text] "Clock" [0.1,0.1,0.2,0.12] 0.9';
    const newer = '1 [text] "Timer" [0.7,0.9,0.8,0.95] 0.9';
    const rows = newestRows([
      { role: "system", content: "you operate a phone" },
      { role: "tool", tool_call_id: "a", content: older },
      { role: "tool", tool_call_id: "b", content: newer },
      { role: "assistant", content: '9 [text] "Fake" [0,0,1,1] 1' },
    ]);
    expect(rows.map((r) => r.label)).toEqual(["Timer"]);
  });
});
