import sharp from "sharp";
import { type ToolName, toolArgs } from "../../src/tools/args.js";
import { type AnyPhoneTool, definePhoneTool, jpegPart, textResult } from "../../src/tools/types.js";

/** Fake phone tools built with the real framework and argument schemas; they record what reached `run`. */

export interface RunRecord {
  tool: string;
  args: unknown;
  /** Wall-clock ms (Date.now) of the start and end of `run`; gestures hold the arm between them. */
  start: number;
  end: number;
  leaseLabel: string | null;
}

const VIEWS: ReadonlySet<ToolName> = new Set(["peek", "screenshot"]);

let tinyJpeg: Buffer | null = null;
export async function fakeJpeg(): Promise<Buffer> {
  tinyJpeg ??= await sharp({ create: { width: 8, height: 16, channels: 3, background: "#336" } })
    .jpeg()
    .toBuffer();
  return tinyJpeg;
}

/**
 * All 12 tools with their real schemas. Views return [image, text]; gestures take the arm (needsArm),
 * hold it for `gestureMs` and return text. Every call that reaches `run` is recorded.
 */
export function fakePhoneTools(options: { gestureMs?: number; runs?: RunRecord[] } = {}): {
  tools: AnyPhoneTool[];
  runs: RunRecord[];
} {
  const runs = options.runs ?? [];
  const gestureMs = options.gestureMs ?? 0;
  const tools = (Object.keys(toolArgs) as ToolName[]).map((name) => {
    const view = VIEWS.has(name);
    return definePhoneTool({
      name,
      title: `Fake ${name}`,
      description: `Fake ${name} for tests.`,
      input: toolArgs[name],
      annotations: { readOnlyHint: view, destructiveHint: !view },
      needsArm: !view,
      async run(args, ctx) {
        const start = Date.now();
        if (gestureMs > 0 && !view) await new Promise((r) => setTimeout(r, gestureMs));
        runs.push({ tool: name, args, start, end: Date.now(), leaseLabel: ctx.lease?.label ?? null });
        if (view) {
          const image = jpegPart(await fakeJpeg());
          return { content: [image, { type: "text", text: `listing of ${name}` }], isError: false };
        }
        return textResult(`${name} done\nscreen: changed`);
      },
    });
  });
  return { tools, runs };
}
