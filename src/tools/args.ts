import { z } from "zod";

/**
 * Argument schemas of the 12 phone tools, strict (unknown keys are refused), with messages that name
 * the field — `bbox[2] (right) must be greater than bbox[0] (left, 0.6) (got 0.4)` — so a model can fix
 * its call. `parseToolArgs` turns zod issues into those messages; the JSON Schema MCP hosts see is
 * generated from the same schemas.
 */

export const BBOX_SIDES = ["left", "top", "right", "bottom"] as const;
export const SWIPE_DIRECTIONS = ["up", "down", "left", "right"] as const;
/** Swipe lengths on the glass: s/m/l/xl/xxl ≈ 1/2/4/6/8 cm. */
export const SWIPE_SIZES = ["s", "m", "l", "xl", "xxl"] as const;
export const SWIPE_SPEEDS = ["slow", "medium", "fast"] as const;
/** Longest text `send_to_clipboard` accepts (characters). */
export const MAX_CLIPBOARD_CHARS = 2000;
/** Tools a `sequence` step may name (gestures and the clipboard; no views, no navigation). */
export const SEQUENCE_TOOLS = ["tap", "double_tap", "long_press", "swipe", "send_to_clipboard"] as const;

const fraction = z.number().min(0).max(1);

/** `[left, top, right, bottom]` in 0–1 fractions of the rectified screen. */
export const bboxSchema = z
  .array(fraction)
  .min(4)
  .max(4)
  .superRefine((box, ctx) => {
    const [left, top, right, bottom] = box;
    if (left === undefined || top === undefined || right === undefined || bottom === undefined) return;
    if (!(right > left)) {
      ctx.addIssue({
        code: "custom",
        path: [2],
        message: `must be greater than bbox[0] (left, ${round(left)}) (got ${round(right)})`,
      });
    }
    if (!(bottom > top)) {
      ctx.addIssue({
        code: "custom",
        path: [3],
        message: `must be greater than bbox[1] (top, ${round(top)}) (got ${round(bottom)})`,
      });
    }
  })
  .describe(
    "Box [left, top, right, bottom] in 0–1 fractions of the screen (from the listing); the action happens at its centre.",
  );

const noArgs = z.strictObject({});
const bboxArgs = z.strictObject({ bbox: bboxSchema });

const swipeArgs = z.strictObject({
  bbox: bboxSchema,
  direction: z.enum(SWIPE_DIRECTIONS).describe("Direction the stylus moves (up scrolls content down)."),
  size: z.enum(SWIPE_SIZES).default("m").describe("Length on the glass: s/m/l/xl/xxl ≈ 1/2/4/6/8 cm."),
  speed: z.enum(SWIPE_SPEEDS).default("medium").describe("slow drags, fast flicks."),
});

const clipboardArgs = z.strictObject({
  text: z
    .string()
    .min(1)
    .max(MAX_CLIPBOARD_CHARS)
    .describe(`Text to put on the phone's clipboard (1–${MAX_CLIPBOARD_CHARS} characters).`),
});

const sequenceStep = z.discriminatedUnion("tool_name", [
  z.strictObject({ tool_name: z.literal("tap"), arg: bboxArgs }),
  z.strictObject({ tool_name: z.literal("double_tap"), arg: bboxArgs }),
  z.strictObject({ tool_name: z.literal("long_press"), arg: bboxArgs }),
  z.strictObject({ tool_name: z.literal("swipe"), arg: swipeArgs }),
  z.strictObject({ tool_name: z.literal("send_to_clipboard"), arg: clipboardArgs }),
]);

const laterStep = sequenceStep.nullish().describe("Optional next step; steps run in order from step1.");

const sequenceArgs = z
  .strictObject({
    step1: sequenceStep.describe("First step: {tool_name, arg} with arg as that tool takes it."),
    step2: laterStep,
    step3: laterStep,
    step4: laterStep,
    step5: laterStep,
  })
  .superRefine((args, ctx) => {
    const given = [args.step1, args.step2, args.step3, args.step4, args.step5].map((s) => s != null);
    given.forEach((present, i) => {
      if (present && i > 0 && !given[i - 1]) {
        ctx.addIssue({
          code: "custom",
          path: [`step${i + 1}`],
          message: `is given without step${i}; fill the steps in order from step1`,
        });
      }
    });
  });

export const toolArgs = {
  peek: noArgs,
  screenshot: noArgs,
  tap: bboxArgs,
  double_tap: bboxArgs,
  long_press: bboxArgs,
  swipe: swipeArgs,
  home_screen: noArgs,
  go_back: noArgs,
  force_quit: noArgs,
  unlock_phone: noArgs,
  send_to_clipboard: clipboardArgs,
  sequence: sequenceArgs,
} as const;

export type ToolName = keyof typeof toolArgs;
export type SequenceArgs = z.output<typeof sequenceArgs>;
export type SequenceStep = z.output<typeof sequenceStep>;

/** The steps of a parsed sequence, in order, without the empty slots. */
export function sequenceSteps(args: SequenceArgs): SequenceStep[] {
  return [args.step1, args.step2, args.step3, args.step4, args.step5].filter(
    (s): s is SequenceStep => s != null,
  );
}

export type ArgsCheck<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/** Validate raw arguments; on failure, every problem is a sentence that starts with the field name. */
export function parseToolArgs<S extends z.ZodType>(schema: S, raw: unknown): ArgsCheck<z.output<S>> {
  const result = schema.safeParse(raw ?? {}, { reportInput: true });
  if (result.success) return { ok: true, value: result.data };
  // One problem per field: zod may add a length complaint to a value that is not even an array.
  const seen = new Set<string>();
  const issues = result.error.issues.filter((issue) => {
    const key = JSON.stringify(issue.path.map(String));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { ok: false, problems: issues.slice(0, 6).map(describeIssue) };
}

/** `bbox[2] (right)`, `step2.arg.direction`, or `arguments` for the root. */
export function fieldName(path: readonly PropertyKey[]): string {
  let out = "";
  path.forEach((key, i) => {
    if (typeof key === "number") {
      out += `[${key}]`;
      const side = BBOX_SIDES[key];
      if (path[i - 1] === "bbox" && i === path.length - 1 && side) out += ` (${side})`;
    } else {
      out += `${out ? "." : ""}${short(String(key))}`;
    }
  });
  return out || "arguments";
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = fieldName(issue.path);
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case "invalid_type": {
      if (input === undefined && !("received" in issue))
        return issue.path.length === 0 ? "arguments must be an object" : `${field} is required`;
      const expected = issue.expected === "number" ? "a finite number" : article(issue.expected);
      const received = (issue as { received?: string }).received ?? typeName(input);
      return `${field} must be ${expected} (got ${received})`;
    }
    case "too_small":
    case "too_big": {
      const small = issue.code === "too_small";
      const limit = small ? issue.minimum : issue.maximum;
      if (issue.origin === "array" && issue.path.at(-1) === "bbox") {
        return `${field} must be 4 numbers [left, top, right, bottom] (got ${lengthOf(input)})`;
      }
      if (issue.origin === "string" && small && limit === 1) return `${field} must not be empty`;
      if (issue.origin === "string")
        return `${field} must be ${small ? "at least" : "at most"} ${limit} characters (got ${lengthOf(input)})`;
      if (issue.origin === "array")
        return `${field} must have ${small ? "at least" : "at most"} ${limit} items (got ${lengthOf(input)})`;
      return `${field} must be ${small ? "≥" : "≤"} ${String(limit)} (got ${preview(input)})`;
    }
    case "invalid_value":
      return `${field} must be one of: ${issue.values.map(String).join(", ")} (got ${preview(input)})`;
    case "unrecognized_keys": {
      const keys = issue.keys.slice(0, 5).map(short).join(", ");
      return `${field} has unknown ${issue.keys.length === 1 ? "key" : "keys"}: ${keys}`;
    }
    case "invalid_union": {
      const options = (issue as { options?: unknown[] }).options;
      if (options) {
        const got = input && typeof input === "object" ? (input as Record<string, unknown>).tool_name : input;
        return `${field} must be one of: ${options.map(String).join(", ")} (got ${preview(got)})`;
      }
      return `${field} does not match any allowed form`;
    }
    case "custom":
      return `${field} ${issue.message}`;
    default:
      return `${field}: ${issue.message}`;
  }
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}

function lengthOf(value: unknown): string {
  return typeof value === "string" || Array.isArray(value) ? String(value.length) : typeName(value);
}

/** A short, safe rendering of a bad value (model input, never a secret; long strings are cut). */
function preview(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "string") return JSON.stringify(short(value));
  if (typeof value === "number") return String(round(value));
  if (typeof value === "boolean" || value === null) return String(value);
  return typeName(value);
}

/** Numbers in messages: at most 4 decimals (0.4 stays 0.4). */
function round(value: number): number {
  return Number.isFinite(value) ? Number(value.toFixed(4)) : value;
}

function short(text: string): string {
  return text.length > 32 ? `${text.slice(0, 29)}…` : text;
}
