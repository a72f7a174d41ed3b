import { z } from "zod";
import type { Logger } from "../log/logger.js";
import { parseToolArgs } from "../tools/args.js";
import { errorResult, type ToolResult, textResult } from "../tools/types.js";
import { errorMessage, PiclawError } from "../util/errors.js";
import type { AgentJobs, AgentMemory, AgentSkills, JobView } from "./ports.js";
import type { Sleep } from "./provider.js";

/**
 * The agent's own tools beside the 12 phone tools: the turn bookkeeping (`note`, `end_session`),
 * memory, the daily log, jobs, skills and `wait`. Arguments are validated with zod (messages name
 * the field); every failure is an error result the model reads, never an exception.
 */

export const NOTE_TOOL = "note";
export const END_SESSION_TOOL = "end_session";
export const NOTE_MAX_WORDS = 20;

export const CLOSING_STATUSES = ["DONE", "FAIL", "WAIT", "IDLE", "STUCK"] as const;

export interface LocalToolContext {
  memory: AgentMemory;
  skills: AgentSkills;
  jobs: AgentJobs;
  signal: AbortSignal;
  sleep: Sleep;
  /** The agent created a job this session (it then owns its follow-up; no automatic one on WAIT). */
  onJobCreated(job: JobView): void;
  log: Logger;
}

export interface LocalTool<Input extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  input: Input;
  run(args: z.output<Input>, ctx: LocalToolContext): Promise<ToolResult>;
}

export type AnyLocalTool = LocalTool<z.ZodType>;

function define<Input extends z.ZodType>(tool: LocalTool<Input>): AnyLocalTool {
  return tool as unknown as AnyLocalTool;
}

const wordCount = (text: string) => text.trim().split(/\s+/).filter(Boolean).length;

export const noteArgs = z.strictObject({
  summary: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .refine((s) => wordCount(s) <= NOTE_MAX_WORDS, `must be at most ${NOTE_MAX_WORDS} words`)
    .describe(`What this turn does and why, at most ${NOTE_MAX_WORDS} words.`),
});

export const endSessionArgs = z.strictObject({
  status: z
    .enum(CLOSING_STATUSES)
    .describe(
      "DONE: the task is complete. FAIL: it cannot be done. WAIT: something must happen first (a follow-up is scheduled). IDLE: nothing to do. STUCK: you cannot make progress; a fresh attempt starts.",
    ),
  recap: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(2000)
    .describe("What happened, for the record and the next session."),
});

const jobId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, "must be a short lower-case id (a-z, 0-9, -)")
  .describe("Job id.");

const text = (what: string, max = 4000) =>
  z.string().trim().min(1, "must not be empty").max(max).describe(what);

/** Result text of a local tool (JSON for structured data, so the model reads exact fields). */
const json = (value: unknown) => textResult(JSON.stringify(value, null, 2));
const warned = (done: string, r: { warning?: string }) =>
  textResult(r.warning ? `${done}\nwarning: ${r.warning}` : done);

export function createLocalTools(): AnyLocalTool[] {
  return [
    define({
      name: NOTE_TOOL,
      description: `Every turn: call note(summary) together with exactly one other tool. The summary says what you do now and why (at most ${NOTE_MAX_WORDS} words); it is your log, it survives folding.`,
      input: noteArgs,
      run: async () => textResult("noted"),
    }),
    define({
      name: END_SESSION_TOOL,
      description:
        "Close the session with a status and a recap (what happened, what is left). Call it alone with note when the task is done, failed, must wait, there was nothing to do, or you are stuck.",
      input: endSessionArgs,
      run: async (args) => textResult(`session closing: ${args.status}`),
    }),
    define({
      name: "read_memory",
      description:
        "Read memory.md (durable facts you saved in earlier sessions) and USER.md (who the user is).",
      input: z.strictObject({}),
      run: async (_args, ctx) => {
        const [memory, user] = await Promise.all([ctx.memory.readMemory(), ctx.memory.readUser()]);
        return textResult(`# memory.md\n${memory || "(empty)"}\n\n# USER.md\n${user || "(empty)"}`);
      },
    }),
    define({
      name: "save_memory",
      description:
        "Append one durable fact to memory.md (something worth knowing in later sessions). Keep it short.",
      input: z.strictObject({ text: text("The fact to remember.", 2000) }),
      run: async (args, ctx) => warned("saved to memory.md", await ctx.memory.saveMemory(args.text)),
    }),
    define({
      name: "update_memory",
      description:
        "Replace the first exact occurrence of old_text in memory.md with new_text (fix or retire a fact).",
      input: z.strictObject({
        old_text: text("Exact text currently in memory.md.", 2000),
        new_text: z.string().max(2000).describe("Replacement (empty to delete)."),
      }),
      run: async (args, ctx) =>
        warned("memory.md updated", await ctx.memory.updateMemory(args.old_text, args.new_text)),
    }),
    define({
      name: "read_daily_log",
      description: "Read the daily log (what happened that day), today by default.",
      input: z.strictObject({
        date: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD")
          .optional()
          .describe("Day to read, YYYY-MM-DD; default today."),
      }),
      run: async (args, ctx) => textResult((await ctx.memory.readDailyLog(args.date)) || "(no entries)"),
    }),
    define({
      name: "append_daily_log",
      description: "Append a line to today's daily log (what you did or learned, for later sessions today).",
      input: z.strictObject({ text: text("The line to append.", 2000) }),
      run: async (args, ctx) => {
        await ctx.memory.appendDailyLog(args.text);
        return textResult("appended to the daily log");
      },
    }),
    define({
      name: "create_job",
      description:
        "Schedule a job (5-field cron schedule). one-time jobs fire once at the next match, periodic ones at every match. The context is handed to the session the job wakes.",
      input: z.strictObject({
        id: jobId,
        description: text("What the job is for.", 500),
        type: z.enum(["periodic", "one-time"]).describe("periodic or one-time."),
        schedule: text("5-field cron expression, e.g. `30 7 * * 1-5`.", 100),
        context: z.string().max(4000).default("").describe("What the woken session needs to know."),
      }),
      run: async (args, ctx) => {
        const job = await ctx.jobs.create(args);
        ctx.onJobCreated(job);
        return json(job);
      },
    }),
    define({
      name: "get_job",
      description: "Read one job by id.",
      input: z.strictObject({ id: jobId }),
      run: async (args, ctx) => {
        const job = await ctx.jobs.get(args.id);
        return job ? json(job) : errorResult(`get_job: no job with id "${args.id}"`);
      },
    }),
    define({
      name: "list_jobs",
      description: "List all jobs with their schedule, status and next fire time.",
      input: z.strictObject({}),
      run: async (_args, ctx) => {
        const jobs = await ctx.jobs.list();
        return jobs.length === 0 ? textResult("(no jobs)") : json(jobs);
      },
    }),
    define({
      name: "finish_job",
      description: "Record a job's execution result (a one-time job closes, a periodic one stays scheduled).",
      input: z.strictObject({ id: jobId, result: text("What came of it.", 2000) }),
      run: async (args, ctx) => json(await ctx.jobs.finish(args.id, args.result)),
    }),
    define({
      name: "load_skill",
      description:
        "Load a skill (a SKILL.md workflow from the skill index in the system prompt) and follow it.",
      input: z.strictObject({ name: text("Skill name from the index.", 100) }),
      run: async (args, ctx) => textResult(await ctx.skills.load(args.name)),
    }),
    define({
      name: "wait",
      description: "Wait 1–60 seconds (for something on the phone to finish) without touching it.",
      input: z.strictObject({
        seconds: z.number().int("must be a whole number").min(1).max(60).describe("Seconds to wait, 1–60."),
      }),
      run: async (args, ctx) => {
        await ctx.sleep(args.seconds * 1000, ctx.signal);
        return textResult(`waited ${args.seconds} s`);
      },
    }),
  ];
}

/** Validate and run a local tool; every failure (invalid args, store errors, abort) becomes a result. */
export async function invokeLocalTool(
  tool: AnyLocalTool,
  rawArgs: unknown,
  ctx: LocalToolContext,
): Promise<ToolResult> {
  const checked = parseToolArgs(tool.input, rawArgs);
  if (!checked.ok) {
    return errorResult(`${tool.name}: invalid arguments: ${checked.problems.join("; ")}. Nothing was done.`);
  }
  try {
    return await tool.run(checked.value, ctx);
  } catch (err) {
    if (err instanceof PiclawError) {
      if (err.code === "ABORTED") return errorResult(`${tool.name}: cancelled (the session is stopping).`);
      return errorResult(`${tool.name} failed [${err.code}]: ${err.message}`);
    }
    ctx.log.error("local tool crashed", { tool: tool.name, err });
    return errorResult(`${tool.name} failed: ${errorMessage(err)}`);
  }
}
