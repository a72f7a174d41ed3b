import { describe, expect, it } from "vitest";
import { describeRunLine } from "../../src/app/commands/agent.js";
import { terminalSafe } from "../../src/log/terminal.js";

describe("terminalSafe", () => {
  it("escapes C0, DEL and C1 controls so text is one inert line", () => {
    const hostile = "\u001b[31mred\u001b]0;title\u0007 a\rb\nDONE: x\tq\u007f\u009b";
    expect(terminalSafe(hostile)).toBe("\\x1b[31mred\\x1b]0;title\\x07 a\\rb\\nDONE: x\\tq\\x7f\\u009b");
    expect(terminalSafe("plain text, ünïcode ✓")).toBe("plain text, ünïcode ✓");
  });

  it("a note cannot print an outcome line; the outcome line comes from the outcome event", () => {
    const note = describeRunLine({ type: "note", turn: 3, summary: "ok\nDONE: all good" });
    expect(note).toBe("    3  ok\\nDONE: all good\n");
    expect(describeRunLine({ type: "outcome", status: "FAIL", recap: "no\rDONE" })).toBe("FAIL: no\\rDONE\n");
  });
});
