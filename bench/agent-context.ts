import sharp from "sharp";
import { DEFAULT_FOLD_POLICY, type FoldPolicy, foldPolicySchema } from "../src/agent/fold.js";
import { createLocalTools } from "../src/agent/local-tools.js";
import type { ChatMessage } from "../src/agent/messages.js";
import { buildSystemPrompt, buildWakeMessage } from "../src/agent/prompt.js";
import { liveText } from "../src/agent/result-text.js";
import { estimateMessagesTokens, estimateTextTokens } from "../src/agent/tokens.js";
import { ToolCatalog } from "../src/agent/tool-catalog.js";
import { ContextWindow } from "../src/agent/window.js";
import type { PhoneToolDeps } from "../src/tools/context.js";
import { createPhoneTools } from "../src/tools/phone-tools.js";
import { MEMORY_TEXT, type ScriptedTurn, scriptedSession } from "./agent-session-script.js";

/**
 * Prompt size per turn of a scripted 120-turn session (peeks and gestures with ~40-row listings and a
 * JPEG, notes, a memory load, a skill load): the real window with the default fold policy, the same
 * window never folding (superseding only), and a naive transcript that keeps every image and listing.
 * Tokens are estimates (src/agent/tokens.ts: chars/4, 800 per image) and include the `tools=[…]`
 * schemas sent with every request. Goal: ≤25k at every turn ≥30. Prints numbers, never fails.
 * Usage: `npm run build && node dist/bench/agent-context.js [turns] [step]` (`npm run bench` prints every 5th turn).
 */

export interface ContextSizes {
  /** Estimated tokens of the tool schemas (constant per request, included in every column). */
  toolSchemaTokens: number;
  /** Per turn (index 0 = after turn 1). */
  folded: number[];
  unfolded: number[];
  naive: number[];
  /** Turns after which a fold happened. */
  foldsAt: number[];
}

const SKILLS = [
  { name: "set-timer", description: "Set a countdown timer in the Clock app.", source: "bundled" as const },
  {
    name: "set-alarm",
    description: "Create or change an alarm in the Clock app.",
    source: "bundled" as const,
  },
  {
    name: "send-message",
    description: "Send a text message to a contact in Messages.",
    source: "bundled" as const,
  },
  {
    name: "check-weather",
    description: "Read today's forecast in the Weather app.",
    source: "bundled" as const,
  },
  { name: "unlock", description: "Wake and unlock the phone safely.", source: "bundled" as const },
];

/** A realistic JPEG: a 390×844 noisy gradient, the size of a downscaled phone screen. */
export async function sampleJpegBase64(): Promise<string> {
  const width = 390;
  const height = 844;
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7 + ((i / 1170) | 0) * 3) & 0xff;
  const jpeg = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 70 })
    .toBuffer();
  return jpeg.toString("base64");
}

/** What a transcript without superseding or folding would send (every image, every full listing). */
function naiveMessages(system: string, wake: string, turns: readonly ScriptedTurn[]): ChatMessage[] {
  const out: ChatMessage[] = [
    { role: "system", content: system },
    { role: "user", content: wake },
  ];
  for (const t of turns) {
    out.push({
      role: "assistant",
      content: t.content,
      tool_calls: t.calls.map((c) => ({
        id: c.id,
        type: "function",
        function: { name: c.name, arguments: c.arguments },
      })),
    });
    for (const o of t.outcomes)
      out.push({ role: "tool", tool_call_id: o.callId, content: liveText(o.result) });
    for (const o of t.outcomes) {
      for (const part of o.result.content) {
        if (part.type === "image")
          out.push({
            role: "user",
            content: [{ type: "image_url", image_url: { url: `data:image/jpeg;base64,${part.data}` } }],
          });
      }
    }
  }
  return out;
}

export async function contextSizes(
  turns = 120,
  policy: FoldPolicy = DEFAULT_FOLD_POLICY,
): Promise<ContextSizes> {
  // The tools' descriptions and schemas only: the factories close over deps that `run` alone uses.
  const catalog = new ToolCatalog(createPhoneTools({} as PhoneToolDeps), createLocalTools());
  const toolSchemaTokens = estimateTextTokens(JSON.stringify(catalog.schemas()));
  const tools = catalog
    .schemas()
    .map((t) => ({ name: t.function.name, description: t.function.description ?? "" }));
  const system = buildSystemPrompt({
    tools,
    memory: MEMORY_TEXT,
    user: "Name: Ada. Lives in Berlin. Prefers short replies.",
    skills: SKILLS,
  });
  const wake = buildWakeMessage(
    {
      at: Date.UTC(2026, 10, 23, 18, 20),
      triggers: [{ kind: "manual", text: "set a 10-minute timer", from: "cli" }],
    },
    "Europe/Berlin",
  );
  const script = scriptedSession(turns, await sampleJpegBase64());
  const never = foldPolicySchema.parse({ firstAt: Number.MAX_SAFE_INTEGER, keep: 10 });
  const folding = new ContextWindow({ system, policy });
  const plain = new ContextWindow({ system, policy: never });
  folding.addUser(wake);
  plain.addUser(wake);
  const sizes: ContextSizes = { toolSchemaTokens, folded: [], unfolded: [], naive: [], foldsAt: [] };
  for (const [i, t] of script.entries()) {
    for (const w of [folding, plain]) {
      w.addAssistant(t.content, t.calls);
      w.addToolResults(t.outcomes);
    }
    if (folding.maybeFold()) sizes.foldsAt.push(i + 1);
    plain.maybeFold();
    sizes.folded.push(toolSchemaTokens + folding.estimateTokens());
    sizes.unfolded.push(toolSchemaTokens + plain.estimateTokens());
    sizes.naive.push(
      toolSchemaTokens + estimateMessagesTokens(naiveMessages(system, wake, script.slice(0, i + 1))),
    );
  }
  return sizes;
}

/** The table as lines; `step` > 1 prints every step-th turn (and every fold turn) to keep it short. */
export async function contextBench(turns = 120, step = 1): Promise<string[]> {
  const s = await contextSizes(turns);
  const k = (n: number | undefined) => `${((n ?? 0) / 1000).toFixed(1)}k`.padStart(7);
  const lines = [
    `agent context: estimated prompt tokens per turn, ${turns}-turn scripted session (tool schemas ${s.toolSchemaTokens} included; folds after turns ${s.foldsAt.join(", ")}):`,
    `  ${"turn".padStart(5)} ${"folded".padStart(7)} ${"no fold".padStart(7)} ${"naive".padStart(7)}`,
  ];
  for (let i = 0; i < s.folded.length; i++) {
    const shown = (i + 1) % step === 0 || i === 0 || s.foldsAt.includes(i + 1) || s.foldsAt.includes(i);
    if (shown)
      lines.push(`  ${String(i + 1).padStart(5)} ${k(s.folded[i])} ${k(s.unfolded[i])} ${k(s.naive[i])}`);
  }
  const after = s.folded.slice(29);
  if (after.length > 0)
    lines.push(
      `  max at turns ≥30: folded ${k(Math.max(...after))}, no fold ${k(Math.max(...s.unfolded.slice(29)))}, naive ${k(Math.max(...s.naive.slice(29)))} (goal ≤25k folded)`,
    );
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [turns, step] = [Number(process.argv[2] ?? 120), Number(process.argv[3] ?? 1)];
  for (const line of await contextBench(turns, step)) process.stdout.write(`${line}\n`);
}
