import { describe, expect, it } from "vitest";
import { type ArgsCheck, parseToolArgs, sequenceSteps, toolArgs } from "../../src/tools/args.js";

function problems(check: ArgsCheck<unknown>): string[] {
  if (check.ok) throw new Error(`expected a rejection, got ${JSON.stringify(check.value)}`);
  return check.problems;
}

describe("tool argument schemas", () => {
  it("accepts valid calls and applies the swipe defaults", () => {
    expect(parseToolArgs(toolArgs.tap, { bbox: [0.1, 0.2, 0.3, 0.4] })).toEqual({
      ok: true,
      value: { bbox: [0.1, 0.2, 0.3, 0.4] },
    });
    expect(parseToolArgs(toolArgs.peek, undefined)).toEqual({ ok: true, value: {} });
    const swipe = parseToolArgs(toolArgs.swipe, { bbox: [0, 0, 1, 1], direction: "up" });
    expect(swipe).toEqual({
      ok: true,
      value: { bbox: [0, 0, 1, 1], direction: "up", size: "m", speed: "medium" },
    });
    const seq = parseToolArgs(toolArgs.sequence, {
      step1: { tool_name: "tap", arg: { bbox: [0.1, 0.1, 0.2, 0.2] } },
      step2: { tool_name: "swipe", arg: { bbox: [0.1, 0.1, 0.2, 0.2], direction: "left", size: "xxl" } },
      step3: null,
    });
    if (!seq.ok) throw new Error(seq.problems.join("; "));
    expect(sequenceSteps(seq.value).map((s) => s.tool_name)).toEqual(["tap", "swipe"]);
  });

  it.each([
    [{ bbox: [0.6, 0.1, 0.4, 0.2] }, "bbox[2] (right) must be greater than bbox[0] (left, 0.6) (got 0.4)"],
    [{ bbox: [0.1, 0.5, 0.4, 0.5] }, "bbox[3] (bottom) must be greater than bbox[1] (top, 0.5) (got 0.5)"],
    [{ bbox: [0.1, 0.2, 1.3, 0.4] }, "bbox[2] (right) must be ≤ 1 (got 1.3)"],
    [{ bbox: [-0.1, 0.2, 0.3, 0.4] }, "bbox[0] (left) must be ≥ 0 (got -0.1)"],
    [{ bbox: [0.1, "0.2", 0.3, 0.4] }, "bbox[1] (top) must be a finite number (got string)"],
    [
      { bbox: [0.1, 0.2, Number.POSITIVE_INFINITY, 0.4] },
      "bbox[2] (right) must be a finite number (got Infinity)",
    ],
    [{ bbox: [0.1, 0.2, Number.NaN, 0.4] }, "bbox[2] (right) must be a finite number (got NaN)"],
    [{ bbox: [0.1, 0.2, 0.3] }, "bbox must be 4 numbers [left, top, right, bottom] (got 3)"],
    [{}, "bbox is required"],
    [{ bbox: "0,0,1,1" }, "bbox must be an array (got string)"],
    [{ bbox: [0, 0, 1, 1], x: 1 }, "arguments has unknown key: x"],
    ["tap here", "arguments must be an object (got string)"],
  ])("tap(%j) → %s", (args, message) => {
    expect(problems(parseToolArgs(toolArgs.tap, args))).toContain(message);
  });

  it("names enum fields, text limits and sequence steps", () => {
    const bbox = [0, 0, 1, 1];
    expect(problems(parseToolArgs(toolArgs.swipe, { bbox, direction: "diagonal" }))).toEqual([
      'direction must be one of: up, down, left, right (got "diagonal")',
    ]);
    expect(problems(parseToolArgs(toolArgs.swipe, { bbox, direction: "up", size: "huge" }))).toEqual([
      'size must be one of: s, m, l, xl, xxl (got "huge")',
    ]);
    expect(problems(parseToolArgs(toolArgs.swipe, { bbox, direction: "up", speed: 3 }))).toEqual([
      "speed must be one of: slow, medium, fast (got 3)",
    ]);
    expect(problems(parseToolArgs(toolArgs.send_to_clipboard, { text: "x".repeat(2001) }))).toEqual([
      "text must be at most 2000 characters (got 2001)",
    ]);
    expect(problems(parseToolArgs(toolArgs.send_to_clipboard, { text: "" }))).toEqual([
      "text must not be empty",
    ]);
    expect(problems(parseToolArgs(toolArgs.sequence, { step1: { tool_name: "peek", arg: {} } }))).toEqual([
      'step1.tool_name must be one of: tap, double_tap, long_press, swipe, send_to_clipboard (got "peek")',
    ]);
    expect(
      problems(
        parseToolArgs(toolArgs.sequence, {
          step1: { tool_name: "tap", arg: { bbox } },
          step2: { tool_name: "swipe", arg: { bbox: [0.5, 0, 0.2, 1], direction: "up" } },
        }),
      ),
    ).toEqual(["step2.arg.bbox[2] (right) must be greater than bbox[0] (left, 0.5) (got 0.2)"]);
    expect(
      problems(
        parseToolArgs(toolArgs.sequence, {
          step1: { tool_name: "tap", arg: { bbox } },
          step3: { tool_name: "tap", arg: { bbox } },
        }),
      ),
    ).toEqual(["step3 is given without step2; fill the steps in order from step1"]);
    expect(problems(parseToolArgs(toolArgs.sequence, {}))).toEqual(["step1 is required"]);
    expect(
      problems(parseToolArgs(toolArgs.sequence, { step1: { tool_name: "tap", arg: { bbox } }, step6: {} })),
    ).toEqual(["arguments has unknown key: step6"]);
  });

  it("never echoes clipboard text into a message", () => {
    const secretish = `pasted-${"y".repeat(3000)}`;
    const msg = problems(parseToolArgs(toolArgs.send_to_clipboard, { text: secretish })).join(" ");
    expect(msg).not.toContain("pasted-");
  });
});
