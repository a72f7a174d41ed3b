import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Logger } from "../../src/log/logger.js";
import { phoneOwnerConfigSchema } from "../../src/rig/config.js";
import { PhoneOwner } from "../../src/rig/owner.js";
import { toolArgs } from "../../src/tools/args.js";
import { invokeTool } from "../../src/tools/invoke.js";
import { definePhoneTool, textResult } from "../../src/tools/types.js";
import { PiclawError } from "../../src/util/errors.js";

function setup() {
  const lines: string[] = [];
  const log = Logger.create({
    level: "debug",
    format: "json",
    sink: { write: (l) => lines.push(l) },
    now: () => 0,
  });
  const owner = new PhoneOwner(phoneOwnerConfigSchema.parse({ waitLimitMs: 200, progressIntervalMs: 100 }), {
    now: () => Date.now(),
  });
  const base = { owner, caller: { kind: "agent", label: "test" } as const, priority: "local", log };
  return { owner, log, lines, base };
}

const gesture = (run: () => Promise<void>) =>
  definePhoneTool({
    name: "tap",
    title: "Tap",
    description: "test",
    input: toolArgs.tap,
    annotations: { readOnlyHint: false, destructiveHint: true },
    needsArm: true,
    async run(args, ctx) {
      expect(ctx.lease?.label).toBe("agent:test");
      await run();
      return textResult(`tapped ${args.bbox.join(",")}`);
    },
  });

describe("invokeTool", () => {
  it("runs a gesture under the arm lease and releases it afterwards", async () => {
    const { owner, base } = setup();
    let heldDuringRun: string | null = null;
    const tool = gesture(async () => {
      heldDuringRun = owner.heldBy;
    });
    const result = await invokeTool(
      tool,
      { bbox: [0, 0, 0.5, 0.5] },
      { ...base, signal: AbortSignal.timeout(5000) },
    );
    expect(result).toEqual({ content: [{ type: "text", text: "tapped 0,0,0.5,0.5" }], isError: false });
    expect(heldDuringRun).toBe("agent:test");
    expect(owner.heldBy).toBeNull();
  });

  it("turns a busy arm into an error result after reporting progress", async () => {
    const { owner, base } = setup();
    const lease = await owner.acquire({ priority: "local", label: "someone" });
    const progress: string[] = [];
    let ran = false;
    const result = await invokeTool(
      gesture(async () => {
        ran = true;
      }),
      { bbox: [0, 0, 1, 1] },
      { ...base, signal: AbortSignal.timeout(5000), onProgress: (m) => progress.push(m) },
    );
    lease.release();
    expect(ran).toBe(false);
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({
      text: expect.stringMatching(/^tap: the phone is busy: 1 caller ahead, waited 0\.\d s/),
    });
    expect(progress[0]).toMatch(/^tap: waiting for the arm, 1 ahead \(the arm is in use by someone\)/);
  });

  it("turns thrown errors into error results without leaking internals, and frees the arm", async () => {
    const { owner, base, lines } = setup();
    const boom = await invokeTool(
      gesture(async () => {
        throw new Error("ENOENT /secret/path");
      }),
      { bbox: [0, 0, 1, 1] },
      { ...base, signal: AbortSignal.timeout(5000) },
    );
    expect(boom).toEqual({
      content: [{ type: "text", text: "tap failed with an internal error; see the PiClaw log." }],
      isError: true,
    });
    expect(lines.join("")).toContain("tool crashed");
    const known = await invokeTool(
      gesture(async () => {
        throw new PiclawError("MOTION_SOFT_LIMIT", "target outside the allowed area; nothing moved");
      }),
      { bbox: [0, 0, 1, 1] },
      { ...base, signal: AbortSignal.timeout(5000) },
    );
    expect(known.content[0]).toEqual({
      type: "text",
      text: "tap failed [MOTION_SOFT_LIMIT]: target outside the allowed area; nothing moved",
    });
    expect(owner.heldBy).toBeNull();
  });

  it("runs views without taking the arm, even while a gesture holds it", async () => {
    const { owner, base } = setup();
    const lease = await owner.acquire({ priority: "local", label: "someone" });
    const view = definePhoneTool({
      name: "peek",
      title: "Peek",
      description: "test",
      input: z.strictObject({}),
      annotations: { readOnlyHint: true, destructiveHint: false },
      needsArm: false,
      run: async (_args, ctx) => textResult(`lease: ${String(ctx.lease)}`),
    });
    const result = await invokeTool(view, {}, { ...base, signal: AbortSignal.timeout(5000) });
    lease.release();
    expect(result).toEqual({ content: [{ type: "text", text: "lease: null" }], isError: false });
  });
});
