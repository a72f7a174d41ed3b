import { z } from "zod";
import { foldPolicySchema } from "./fold.js";

/**
 * The `agent` config section: named providers (one is active), budgets, the turn rules' limits and the
 * loop guards. Every key has a default so an empty section is a working configuration (given an API key).
 */

const pricesSchema = z
  .strictObject({
    inputPer1M: z.number().min(0).describe("USD per 1M prompt (input) tokens."),
    outputPer1M: z.number().min(0).describe("USD per 1M completion (output) tokens."),
  })
  .describe("Token prices, for cost budgets and the cost in session summaries.");

export const providerSettingsSchema = z
  .strictObject({
    baseUrl: z
      .url()
      .default("https://api.openai.com/v1")
      .describe("Base URL of an OpenAI-compatible API (the part before `/chat/completions`)."),
    model: z.string().min(1).default("gpt-4.1").describe("Model name sent with every request."),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name")
      .default("OPENAI_API_KEY")
      .describe("Environment variable holding the API key (checked first)."),
    apiKeyFile: z
      .string()
      .min(1)
      .optional()
      .describe(
        "File holding the API key (whitespace trimmed), used when the environment variable is unset; relative paths are under the state directory.",
      ),
    timeoutMs: z
      .number()
      .int()
      .min(1000)
      .max(600_000)
      .default(120_000)
      .describe(
        "Deadline of one request to the provider (ms), headers and body together; a timed-out request is retried within the turn.",
      ),
    stream: z
      .boolean()
      .default(false)
      .describe(
        "Ask for a streamed reply (SSE, with `stream_options.include_usage`), assembled into the same reply; the same deadline applies, plus `streamIdleMs` between pieces. Off: a provider that streams anyway is an error.",
      ),
    streamIdleMs: z
      .number()
      .int()
      .min(1000)
      .max(600_000)
      .default(60_000)
      .describe(
        "With `stream`: longest silence between two pieces of a stream (ms; keep-alive comments count), within `timeoutMs`; a stalled stream is retried within the turn. Raise it for models that think silently for long.",
      ),
    maxReplyBytes: z
      .number()
      .int()
      .min(65_536)
      .max(268_435_456)
      .default(4_194_304)
      .describe(
        "Largest 2xx reply read (bytes): the body of a reply, or for a stream the text and tool calls it assembles (and any one event). A larger reply is cut off while reading and ends the session STUCK (not retried: it would come back as large, and be paid for again).",
      ),
    maxRetries: z
      .number()
      .int()
      .min(0)
      .max(20)
      .default(5)
      .describe(
        "Retries of one turn's request on 408/409/429/5xx, timeouts, connection errors and cut-off or (once) malformed replies; when they run out the session ends STUCK (no fresh attempt).",
      ),
    retryBaseMs: z
      .number()
      .int()
      .min(1)
      .max(60_000)
      .default(1000)
      .describe(
        "First retry delay (ms); doubles each retry, with ±50% jitter, unless `Retry-After` says otherwise.",
      ),
    retryMaxMs: z
      .number()
      .int()
      .min(1)
      .max(600_000)
      .default(60_000)
      .describe(
        "Longest wait before a retry (ms). A `Retry-After` asking for longer ends the session STUCK at once without re-sending; no later request (of any session) is sent before the Retry-After, and a job's session schedules its follow-up job after it.",
      ),
    temperature: z
      .number()
      .min(0)
      .max(2)
      .optional()
      .describe("Sampling temperature; unset = the provider's default."),
    maxCompletionTokens: z
      .number()
      .int()
      .min(16)
      .max(200_000)
      .optional()
      .describe("Upper bound on tokens the model may generate per turn; unset = the provider's default."),
    toolChoice: z
      .enum(["auto", "required"])
      .default("required")
      .describe("`tool_choice` sent with requests; `required` forbids prose-only answers where supported."),
    prices: pricesSchema.optional(),
    fold: foldPolicySchema.prefault({}),
  })
  .describe("One OpenAI-compatible provider.");

const sessionBudgetSchema = z
  .strictObject({
    maxWallSeconds: z
      .number()
      .int()
      .min(10)
      .max(86_400)
      .default(3600)
      .describe("Wall time of one session, all attempts together (s)."),
    maxTokens: z
      .number()
      .int()
      .min(1000)
      .nullable()
      .default(8_000_000)
      .describe("Prompt + completion tokens of one session, all attempts together; null = no limit."),
    maxCostUsd: z
      .number()
      .min(0)
      .nullable()
      .default(null)
      .describe("Cost of one session (USD, needs the provider's prices); null = no limit."),
  })
  .describe("Limits of one session; reaching one stops the session (status STUCK, no further attempt).");

const dayBudgetSchema = z
  .strictObject({
    maxTurns: z
      .number()
      .int()
      .min(1)
      .nullable()
      .default(3000)
      .describe("Turns of all sessions of one day; null = no limit."),
    maxTokens: z
      .number()
      .int()
      .min(1000)
      .nullable()
      .default(40_000_000)
      .describe("Prompt + completion tokens of all sessions of one day; null = no limit."),
    maxCostUsd: z
      .number()
      .min(0)
      .nullable()
      .default(null)
      .describe("Cost of all sessions of one day (USD, needs prices); null = no limit."),
  })
  .describe(
    "Limits per calendar day (in the top-level `timeZone`), persisted in the state directory; reaching one stops the running session and refuses new ones until the next day.",
  );

const guardSchema = z
  .strictObject({
    warnAt: z
      .number()
      .int()
      .min(2)
      .max(50)
      .default(3)
      .describe(
        "Warn the model when the same target shows no visible change, or the same call fails, this many times in a row.",
      ),
    blockAt: z
      .number()
      .int()
      .min(2)
      .max(100)
      .default(5)
      .describe("From this repetition on, the call is not run; the result tells the model why."),
  })
  .refine((g) => g.blockAt > g.warnAt, { message: "blockAt must be greater than warnAt", path: ["blockAt"] })
  .describe("Loop guards against pressing the same dead target or repeating a failing call.");

export const agentConfigSchema = z
  .strictObject({
    provider: z
      .string()
      .min(1)
      .default("default")
      .describe("Name of the active provider (a key of `agent.providers`)."),
    providers: z
      .record(z.string().min(1), providerSettingsSchema)
      .default({ default: providerSettingsSchema.parse({}) })
      .describe("OpenAI-compatible providers by name; settings per provider."),
    maxTurnsPerAttempt: z
      .number()
      .int()
      .min(1)
      .max(5000)
      .default(300)
      .describe("Turns of one attempt; an attempt that runs out of turns without closing counts as STUCK."),
    maxAttempts: z
      .number()
      .int()
      .min(1)
      .max(10)
      .default(3)
      .describe(
        "Attempts per session in total: a STUCK attempt is retried fresh from the same wake up to this.",
      ),
    badTurnLimit: z
      .number()
      .int()
      .min(1)
      .max(50)
      .default(5)
      .describe("Rejected turns in a row (wrong tool-call shape) after which the attempt is STUCK."),
    followUpMinutes: z
      .number()
      .int()
      .min(1)
      .max(10_080)
      .default(15)
      .describe(
        "After a WAIT without a job scheduled by the agent, the follow-up job fires this many minutes later.",
      ),
    followUpJobId: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, "must be a short lower-case id")
      .default("follow-up")
      .describe("Id of the canonical follow-up job (reused across WAITs)."),
    budgets: z
      .strictObject({
        session: sessionBudgetSchema.prefault({}),
        day: dayBudgetSchema.prefault({}),
      })
      .prefault({})
      .describe("Budgets that stop sessions."),
    guard: guardSchema.prefault({}),
  })
  .refine((c) => c.provider in c.providers, {
    message: "must name a key of agent.providers",
    path: ["provider"],
  })
  .describe("The built-in agent loop (provider, budgets, turn rules, loop guards, context folding).");

export type AgentConfig = z.infer<typeof agentConfigSchema>;
export type ProviderSettings = z.infer<typeof providerSettingsSchema>;
export type TokenPrices = NonNullable<ProviderSettings["prices"]>;

/** The active provider's name and settings (the schema guarantees it exists). */
export function activeProvider(config: AgentConfig): { name: string; settings: ProviderSettings } {
  const settings = config.providers[config.provider];
  if (!settings) throw new Error(`agent.provider "${config.provider}" is not in agent.providers`);
  return { name: config.provider, settings };
}

/** Cost of `usage` at `prices`, or null when no prices are configured. */
export function costOf(
  usage: { prompt: number; completion: number },
  prices: TokenPrices | undefined,
): number | null {
  if (!prices) return null;
  return (usage.prompt * prices.inputPer1M + usage.completion * prices.outputPer1M) / 1_000_000;
}
