import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from "openai";
import type { Logger } from "../log/logger.js";
import type { Clock } from "../util/clock.js";
import { errorMessage, PiclawError } from "../util/errors.js";
import type { Random } from "../util/random.js";
import type { ProviderSettings } from "./config.js";
import type { TokenUsage } from "./events.js";
import type { ChatMessage, ChatToolSchema } from "./messages.js";
import type { ToolCallRecord } from "./ports.js";

/**
 * The model behind the agent: one chat completion with native tools. The retry policy lives here (the
 * SDK's own retries are off) so it is testable on virtual time: 429, 408, 409, 5xx, timeouts and
 * connection errors are retried with exponential backoff and jitter, honouring `Retry-After`
 * (`retry-after-ms`, seconds, or an HTTP date).
 */

export interface ChatRequest {
  messages: ChatMessage[];
  tools: ChatToolSchema[];
  /** Aborts the request and any backoff wait (the session is being aborted). */
  signal: AbortSignal;
  /** Called before each backoff wait. */
  onRetry?: (info: RetryInfo) => void;
}

export interface RetryInfo {
  /** 1 for the first retry. */
  retry: number;
  delayMs: number;
  reason: string;
}

export interface ChatReply {
  content: string | null;
  toolCalls: ToolCallRecord[];
  usage: TokenUsage;
  finishReason: string | null;
}

/**
 * Contract: `complete` resolves with the model's reply, or throws PiclawError `ABORTED` (the signal
 * fired), `PROVIDER_UNAVAILABLE` (retries exhausted or Retry-After too long) or `PROVIDER_FAILED`
 * (a non-retryable answer such as 400/401/404). It never logs the API key.
 */
export interface ChatProvider {
  readonly name: string;
  readonly model: string;
  complete(request: ChatRequest): Promise<ChatReply>;
}

/** An abortable sleep; injected so tests run retries on virtual time. Rejects when the signal fires. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError());
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });

function abortError(): PiclawError {
  return new PiclawError("ABORTED", "aborted");
}

/**
 * The API key: the environment variable first, else the key file (relative to `stateDir`). Throws
 * PiclawError PROVIDER_NO_KEY naming both places (never the value).
 */
export function resolveApiKey(
  settings: Pick<ProviderSettings, "apiKeyEnv" | "apiKeyFile">,
  env: NodeJS.ProcessEnv,
  stateDir: string,
  readFile: (path: string) => string = (p) => readFileSync(p, "utf8"),
): string {
  const fromEnv = env[settings.apiKeyEnv]?.trim();
  if (fromEnv) return fromEnv;
  if (settings.apiKeyFile) {
    const path = isAbsolute(settings.apiKeyFile) ? settings.apiKeyFile : join(stateDir, settings.apiKeyFile);
    let text: string;
    try {
      text = readFile(path).trim();
    } catch (err) {
      throw new PiclawError("PROVIDER_NO_KEY", `cannot read the API key file ${path}: ${errorMessage(err)}`, {
        path,
      });
    }
    if (text) return text;
  }
  const where = settings.apiKeyFile
    ? `${settings.apiKeyEnv} or the file ${settings.apiKeyFile}`
    : settings.apiKeyEnv;
  throw new PiclawError("PROVIDER_NO_KEY", `no API key: set ${where}`, { env: settings.apiKeyEnv });
}

export interface OpenAIProviderDeps {
  apiKey: string;
  clock: Clock;
  random: Random;
  sleep: Sleep;
  log: Logger;
  /** Replaces the global fetch (tests). */
  fetch?: typeof fetch;
}

export class OpenAIProvider implements ChatProvider {
  readonly model: string;
  private readonly client: OpenAI;
  /** For tool calls that arrive without an id (some local servers omit it). */
  private syntheticIds = 0;

  constructor(
    readonly name: string,
    private readonly settings: ProviderSettings,
    private readonly deps: OpenAIProviderDeps,
  ) {
    this.model = settings.model;
    deps.log.addSecret(deps.apiKey);
    this.client = new OpenAI({
      apiKey: deps.apiKey,
      baseURL: settings.baseUrl,
      timeout: settings.timeoutMs,
      maxRetries: 0,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
  }

  async complete(request: ChatRequest): Promise<ChatReply> {
    const { settings, deps } = this;
    for (let retry = 0; ; retry++) {
      if (request.signal.aborted) throw abortError();
      let failure: unknown;
      try {
        return await this.once(request);
      } catch (err) {
        failure = err;
      }
      if (failure instanceof APIUserAbortError || request.signal.aborted) throw abortError();
      const verdict = classify(failure);
      if (!verdict.retryable) {
        throw new PiclawError("PROVIDER_FAILED", `provider ${this.name}: ${verdict.reason}`, {
          status: verdict.status,
        });
      }
      if (retry >= settings.maxRetries) {
        throw new PiclawError(
          "PROVIDER_UNAVAILABLE",
          `provider ${this.name}: ${verdict.reason} (gave up after ${retry} retries)`,
          { status: verdict.status },
        );
      }
      const hinted = retryAfterMs(verdict.headers, deps.clock.now());
      if (hinted !== null && hinted > settings.retryMaxMs) {
        throw new PiclawError(
          "PROVIDER_UNAVAILABLE",
          `provider ${this.name}: ${verdict.reason}; asked to retry after ${Math.round(hinted / 1000)} s, longer than retryMaxMs`,
          { status: verdict.status, retryAfterMs: hinted },
        );
      }
      const delayMs = hinted ?? backoffMs(retry + 1, settings.retryBaseMs, settings.retryMaxMs, deps.random);
      deps.log.warn("provider request failed; retrying", {
        provider: this.name,
        reason: verdict.reason,
        retry: retry + 1,
        delayMs,
      });
      request.onRetry?.({ retry: retry + 1, delayMs, reason: verdict.reason });
      await deps.sleep(delayMs, request.signal);
    }
  }

  private async once(request: ChatRequest): Promise<ChatReply> {
    const { settings } = this;
    // The SDK leaves a listener on the signal it is given; a per-request controller keeps the
    // session's long-lived signal from collecting one per turn.
    const perRequest = new AbortController();
    const forward = () => perRequest.abort(request.signal.reason);
    request.signal.addEventListener("abort", forward, { once: true });
    const completion = await this.client.chat.completions
      .create(
        {
          model: settings.model,
          messages: request.messages,
          tools: request.tools,
          tool_choice: settings.toolChoice,
          ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
          ...(settings.maxCompletionTokens !== undefined
            ? { max_completion_tokens: settings.maxCompletionTokens }
            : {}),
        },
        { signal: perRequest.signal },
      )
      .finally(() => request.signal.removeEventListener("abort", forward));
    const choice = completion.choices[0];
    if (!choice) throw new PiclawError("PROVIDER_FAILED", `provider ${this.name}: the reply has no choices`);
    const toolCalls: ToolCallRecord[] = [];
    for (const call of choice.message.tool_calls ?? []) {
      if (call.type !== "function") continue;
      // The transcript needs a unique id per call to pair it with its result.
      const id = call.id || `call_piclaw_${++this.syntheticIds}`;
      toolCalls.push({ id, name: call.function.name, arguments: call.function.arguments ?? "" });
    }
    return {
      content: choice.message.content ?? null,
      toolCalls,
      usage: {
        prompt: completion.usage?.prompt_tokens ?? 0,
        completion: completion.usage?.completion_tokens ?? 0,
      },
      finishReason: choice.finish_reason ?? null,
    };
  }
}

interface Classified {
  retryable: boolean;
  reason: string;
  status: number | null;
  headers: Headers | undefined;
}

const RETRY_STATUS = new Set([408, 409, 429]);

function classify(err: unknown): Classified {
  if (err instanceof APIConnectionError) {
    // APIConnectionTimeoutError is a subclass: timeouts and refused/reset connections alike.
    return { retryable: true, reason: errorMessage(err), status: null, headers: undefined };
  }
  if (err instanceof APIError) {
    const status = typeof err.status === "number" ? err.status : null;
    const retryable = status !== null && (RETRY_STATUS.has(status) || status >= 500);
    return {
      retryable,
      reason: `HTTP ${status ?? "?"}: ${firstLine(err.message)}`,
      status,
      headers: err.headers instanceof Headers ? err.headers : undefined,
    };
  }
  if (err instanceof PiclawError)
    return { retryable: false, reason: err.message, status: null, headers: undefined };
  return { retryable: false, reason: errorMessage(err), status: null, headers: undefined };
}

function firstLine(text: string): string {
  return (text.split("\n")[0] ?? "").slice(0, 300);
}

/** `retry-after-ms`, else `Retry-After` in seconds or as an HTTP date; null when absent or unreadable. */
export function retryAfterMs(headers: Headers | undefined, nowMs: number): number | null {
  if (!headers) return null;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get("retry-after")?.trim();
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - nowMs);
}

/** Exponential backoff with ±50% jitter: base·2^(retry−1), capped at `maxMs`. */
export function backoffMs(retry: number, baseMs: number, maxMs: number, random: Random): number {
  const nominal = Math.min(maxMs, baseMs * 2 ** (retry - 1));
  return Math.round(Math.min(maxMs, nominal * (0.5 + random.next())));
}
