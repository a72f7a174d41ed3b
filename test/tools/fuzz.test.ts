import { describe, expect, it } from "vitest";
import { Logger } from "../../src/log/logger.js";
import { phoneOwnerConfigSchema } from "../../src/rig/config.js";
import { PhoneOwner } from "../../src/rig/owner.js";
import { SEQUENCE_TOOLS, SWIPE_DIRECTIONS, type ToolName } from "../../src/tools/args.js";
import { invokeTool } from "../../src/tools/invoke.js";
import { type Random, seededRandom } from "../../src/util/random.js";
import { fakePhoneTools } from "./fakes.js";

/**
 * Generated invalid calls: each starts from a valid call and applies a mutation that makes it invalid
 * by construction. All must be refused with a message naming a field, and none may reach the owner
 * or `run`.
 */

type Args = Record<string, unknown>;
const pick = <T>(r: Random, items: readonly T[]): T => items[Math.floor(r.next() * items.length)] as T;

function validBbox(r: Random): number[] {
  const left = r.next() * 0.8;
  const top = r.next() * 0.8;
  return [
    left,
    top,
    left + 0.01 + r.next() * (0.99 - left - 0.01),
    top + 0.01 + r.next() * (0.99 - top - 0.01),
  ];
}

function validArgs(r: Random, tool: ToolName): Args {
  switch (tool) {
    case "tap":
    case "double_tap":
    case "long_press":
      return { bbox: validBbox(r) };
    case "swipe":
      return { bbox: validBbox(r), direction: pick(r, SWIPE_DIRECTIONS) };
    case "send_to_clipboard":
      return { text: "hello 你好" };
    case "sequence":
      return { step1: { tool_name: "tap", arg: { bbox: validBbox(r) } } };
    default:
      return {};
  }
}

const JUNK: readonly unknown[] = ["0.5", null, true, {}, [], [0.5], "", Number.NaN, Number.POSITIVE_INFINITY];

function badBbox(r: Random, box: number[]): unknown {
  const b = [...box];
  const i = Math.floor(r.next() * 4);
  switch (Math.floor(r.next() * 7)) {
    case 0: // right ≤ left
      b[2] = (b[0] ?? 0.5) - r.next() * (b[0] ?? 0.5);
      return b;
    case 1: // bottom ≤ top
      b[3] = (b[1] ?? 0.5) - r.next() * (b[1] ?? 0.5);
      return b;
    case 2: // out of range
      b[i] = r.next() < 0.5 ? -0.001 - r.next() * 5 : 1.001 + r.next() * 5;
      return b;
    case 3: // not a finite number
      return b.map((v, k) => (k === i ? pick(r, JUNK) : v));
    case 4: // wrong length
      return r.next() < 0.5
        ? b.slice(0, Math.floor(r.next() * 4))
        : [...b, ...b].slice(0, 5 + Math.floor(r.next() * 4));
    case 5:
      return pick(r, ["0,0,1,1", 0.5, null, { left: 0 }, true]);
    default:
      return undefined; // missing
  }
}

function mutate(r: Random, tool: ToolName, args: Args, depth = 0): unknown {
  const roll = r.next();
  if (roll < 0.08) return pick(r, ["tap", 42, true, [args]]); // not an object at all
  if (roll < 0.18 || !("bbox" in args || "text" in args || "step1" in args)) {
    return { ...args, [pick(r, ["x", "bbox2", "Direction", "__proto", "arg"])]: 1 }; // unknown key
  }
  if (tool === "swipe" && roll < 0.4) {
    const key = pick(r, ["direction", "size", "speed"]);
    return { ...args, [key]: pick(r, ["diagonal", "UP", "", 3, null, "xxxl", "faster"]) };
  }
  if (tool === "send_to_clipboard") {
    return { text: pick(r, ["", "z".repeat(2001 + Math.floor(r.next() * 100)), 7, null, ["a"]]) };
  }
  if (tool === "sequence") {
    const s = Math.floor(r.next() * 5);
    if (s === 0) return { step1: { tool_name: pick(r, ["peek", "home_screen", "tapp", "", 1]), arg: {} } };
    if (s === 1) return { ...args, step3: { tool_name: "tap", arg: { bbox: validBbox(r) } } }; // gap
    if (s === 2) return { step1: { tool_name: "tap" } }; // missing arg
    if (s === 3) return { ...args, step6: args.step1 };
    const inner = pick(r, SEQUENCE_TOOLS);
    const arg = depth > 0 ? {} : mutate(r, inner, validArgs(r, inner), depth + 1);
    return { ...args, step2: { tool_name: inner, arg } };
  }
  const out: Args = { ...args };
  const bad = badBbox(r, (args.bbox as number[]) ?? validBbox(r));
  if (bad === undefined) delete out.bbox;
  else out.bbox = bad;
  return out;
}

const FIELD =
  /\b(bbox(\[\d\] \((left|top|right|bottom)\))?|direction|size|speed|text|step[1-6]|tool_name|arg|arguments)\b/;

describe("tool argument fuzz", () => {
  it("refuses 1,200 generated invalid calls with field-naming messages; none moves or runs", async () => {
    const { tools, runs } = fakePhoneTools();
    const owner = new PhoneOwner(phoneOwnerConfigSchema.parse({}), { now: () => 0 });
    let acquires = 0;
    const acquire = owner.acquire.bind(owner);
    owner.acquire = (req) => {
      acquires += 1;
      return acquire(req);
    };
    const log = Logger.create({ level: "error", format: "json", sink: { write: () => {} }, now: () => 0 });
    const r = seededRandom(20260105);
    const options = { owner, caller: { kind: "agent", label: "fuzz" } as const, priority: "local", log };

    let refused = 0;
    for (let i = 0; i < 1200; i++) {
      const tool = pick(r, tools);
      const name = tool.name as ToolName;
      const args = mutate(r, name, validArgs(r, name));
      const result = await invokeTool(tool, args, { ...options, signal: new AbortController().signal });
      const text = result.content[0]?.type === "text" ? result.content[0].text : "";
      expect(result.isError, `${name}(${JSON.stringify(args)?.slice(0, 200)}) was accepted`).toBe(true);
      expect(text.startsWith(`${name}: invalid arguments: `)).toBe(true);
      expect(text, text).toMatch(FIELD);
      refused += 1;
    }
    expect(refused).toBe(1200);

    // Keys a schema library may drop or treat specially, as own keys the way JSON.parse makes them
    // (issue 19): at the top level of every tool's valid call, and inside a sequence step's arg.
    let special = 0;
    for (const tool of tools) {
      for (const key of ["__proto__", "constructor"]) {
        const valid = JSON.stringify(validArgs(r, tool.name as ToolName));
        const bodies = [`${valid.slice(0, -1)}${valid === "{}" ? "" : ","}"${key}":{"x":1}}`];
        if (tool.name === "sequence") bodies.push(valid.replace('"arg":{', `"arg":{"${key}":{},`));
        for (const body of bodies) {
          const args: unknown = JSON.parse(body);
          const result = await invokeTool(tool, args, { ...options, signal: new AbortController().signal });
          const text = result.content[0]?.type === "text" ? result.content[0].text : "";
          expect(result.isError, `${tool.name}(${body}) was accepted`).toBe(true);
          expect(text).toContain(`unknown key: ${key}`);
          special += 1;
        }
      }
    }
    expect(special).toBe(tools.length * 2 + 2);
    expect(runs).toHaveLength(0);
    expect(acquires).toBe(0);

    // The same harness with the unmutated calls: every one runs (so the checks above can fail).
    for (const tool of tools) {
      const result = await invokeTool(tool, validArgs(r, tool.name as ToolName), {
        ...options,
        signal: new AbortController().signal,
      });
      expect(result.isError, JSON.stringify(result.content)).toBe(false);
    }
    expect(runs).toHaveLength(12);
    expect(acquires).toBe(10);
  });
});
