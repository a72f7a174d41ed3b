import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { Logger } from "../log/logger.js";
import type { Clock } from "../util/clock.js";
import { errorMessage, PiclawError } from "../util/errors.js";
import type { Random } from "../util/random.js";
import { sleepUnlessAborted } from "../util/sleep.js";
import type { ProviderSettings } from "./config.js";
import type { ChatMessage, ChatToolSchema } from "./messages.js";
import { type ChatReply, classify, FAULT, parseReply } from "./provider-reply.js";
import { assembleStreamText, readBoundedText, readStreamedReply } from "./provider-stream.js";

/**
 * The model behind the agent: one chat completion with native tools. The retry policy lives here (the
 * SDK's own retries are off) so it is testable on virtual time: 429, 408, 409, 5xx, timeouts,
 * connection errors, replies cut off mid-body and (once) malformed JSON are retried within the turn
 * with exponential backoff and jitter, honouring `Retry-After` (`retry-after-ms`, seconds, or an
 * HTTP date) — also for later requests, attempts and sessions: none is sent before the instant the
 * provider named. Each request runs under our own deadline covering headers and body.
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

export type { ChatReply } from "./provider-reply.js";

/**
 * Contract: `complete` resolves with the model's reply, or throws PiclawError `ABORTED` (the signal
 * fired), `PROVIDER_UNAVAILABLE` (retries exhausted, or Retry-After longer than retryMaxMs: then
 * `details.retryAt` is the instant the provider allows requests again) or `PROVIDER_FAILED` (a
 * non-retryable answer such as 400/401/403/404 or a reply of the wrong shape). Messages start with
 * `provider NAME:` exactly once. It never logs the API key.
 */
export interface ChatProvider {
  readonly name: string;
  readonly model: string;
  complete(request: ChatRequest): Promise<ChatReply>;
}

/** An abortable sleep; injected so tests run retries on virtual time. Rejects when the signal fires. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export const realSleep: Sleep = async (ms, signal) => {
  await sleepUnlessAborted(ms, signal);
  if (signal.aborted) throw abortError();
};

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
  /** The per-request deadline's timer; real setTimeout when absent. */
  setTimer?: SetTimer;
}

/** A one-shot timer; injected so the deadline is testable without the wall clock. Returns a cancel. */
export type SetTimer = (fn: () => void, ms: number) => () => void;

export const realSetTimer: SetTimer = (fn, ms) => {
  const timer = setTimeout(fn, ms);
  return () => clearTimeout(timer);
};

export class OpenAIProvider implements ChatProvider {
  readonly model: string;
  private readonly client: OpenAI;
  /** For tool calls that arrive without an id (some local servers omit it). */
  private syntheticIds = 0;
  /**
   * The provider's last Retry-After as an instant (ms since epoch): no request leaves before it, in
   * this turn, a later attempt or a later session of the same daemon.
   */
  private notBefore = 0;

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
    const started = deps.clock.now();
    const kinds: string[] = [];
    let malformed = 0;
    for (let retry = 0; ; retry++) {
      if (request.signal.aborted) throw abortError();
      await this.waitForRetryAfter(request.signal);
      let failure: unknown;
      try {
        return await this.once(request);
      } catch (err) {
        failure = err;
      }
      if (failure instanceof APIUserAbortError || request.signal.aborted) throw abortError();
      const verdict = classify(failure, SDK);
      kinds.push(verdict.kind);
      if (verdict.kind === "malformed reply" && ++malformed > 1) verdict.retryable = false;
      if (!verdict.retryable) {
        throw new PiclawError("PROVIDER_FAILED", `provider ${this.name}: ${verdict.reason}`, {
          status: verdict.status,
        });
      }
      const now = deps.clock.now();
      const hinted = retryAfterMs(verdict.headers, now);
      if (hinted !== null) this.notBefore = Math.max(this.notBefore, now + hinted);
      if (hinted !== null && hinted > settings.retryMaxMs) {
        throw this.tooLong(
          `${verdict.reason}; asked to retry after ${Math.round(hinted / 1000)} s`,
          verdict.status,
        );
      }
      if (retry >= settings.maxRetries) {
        const over = Math.round((now - started) / 1000);
        const same = kinds.every((k) => k === verdict.kind);
        const tally = same ? `${verdict.kind} ×${kinds.length}` : `${kinds.length} failed requests`;
        throw new PiclawError(
          "PROVIDER_UNAVAILABLE",
          `provider ${this.name}: ${tally} over ${over} s (gave up after ${retry} retries; last: ${verdict.reason})`,
          { status: verdict.status },
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

  /** Honour a Retry-After from an earlier request; longer than retryMaxMs ends the turn unsent. */
  private async waitForRetryAfter(signal: AbortSignal): Promise<void> {
    const waitMs = this.notBefore - this.deps.clock.now();
    if (waitMs <= 0) return;
    if (waitMs > this.settings.retryMaxMs) {
      throw this.tooLong(`asked earlier to retry after ${new Date(this.notBefore).toISOString()}`, null);
    }
    await this.deps.sleep(waitMs, signal);
  }

  private tooLong(why: string, status: number | null): PiclawError {
    const retryAfterMs = Math.max(0, this.notBefore - this.deps.clock.now());
    return new PiclawError(
      "PROVIDER_UNAVAILABLE",
      `provider ${this.name}: ${why}, longer than retryMaxMs (${Math.round(this.settings.retryMaxMs / 1000)} s)`,
      { status, retryAfterMs, retryAt: this.notBefore },
    );
  }

  /**
   * One request under our own deadline (`timeoutMs`), which covers the headers AND the body: the
   * SDK's `timeout` stops at the headers and undici's body timeout is 300 s, so a provider that
   * sends headers and stalls would otherwise hold the turn for minutes. A stream is also bounded
   * between pieces (`streamIdleMs`), and every body by `maxReplyBytes`, counted while reading.
   */
  private async once(request: ChatRequest): Promise<ChatReply> {
    const { settings } = this;
    const setTimer = this.deps.setTimer ?? realSetTimer;
    // A per-request controller: the SDK leaves a listener on the signal it is given, and the
    // session's long-lived signal must not collect one per turn.
    const perRequest = new AbortController();
    const forward = () => perRequest.abort(request.signal.reason);
    request.signal.addEventListener("abort", forward, { once: true });
    // Why we cut the request short (deadline, silence), if we did: that, not the abort, is reported.
    let fault: PiclawError | null = null;
    const fail = (err: PiclawError) => {
      fault ??= err;
      perRequest.abort("deadline");
    };
    const cancelTimer = setTimer(
      () =>
        fail(
          new PiclawError(
            FAULT.timeout,
            `no complete reply within ${settings.timeoutMs / 1000} s (request timed out)`,
          ),
        ),
      settings.timeoutMs,
    );
    let cancelIdle = () => {};
    const alive = () => {
      cancelIdle();
      cancelIdle = setTimer(
        () =>
          fail(
            new PiclawError(
              FAULT.timeout,
              `the stream stalled: nothing for ${settings.streamIdleMs / 1000} s (streamIdleMs)`,
            ),
          ),
        settings.streamIdleMs,
      );
    };
    const newId = () => `call_piclaw_${++this.syntheticIds}`;
    try {
      const response = await this.send(request, perRequest.signal);
      const contentType = response.headers.get("content-type");
      if (settings.stream && contentType?.includes("text/event-stream")) {
        alive();
        return await readStreamedReply(response, settings.maxReplyBytes, newId, alive);
      }
      const text = await readBoundedText(response, settings.maxReplyBytes);
      // Streaming asked for and a stream sent under another type (`text/plain`): read it as one.
      if (settings.stream && /^\s*(data|event|:)/.test(text)) {
        return assembleStreamText(text, settings.maxReplyBytes, newId);
      }
      return parseReply(text, contentType, newId);
    } catch (err) {
      if (fault) throw fault;
      if (request.signal.aborted) throw abortError();
      throw err;
    } finally {
      cancelTimer();
      cancelIdle();
      // Closes the connection if the body was left unread (an error, a reply over the limit).
      perRequest.abort("done");
      request.signal.removeEventListener("abort", forward);
    }
  }

  /** The request; resolves at the headers. `stream` adds `stream_options.include_usage` (usage comes last). */
  private send(request: ChatRequest, signal: AbortSignal): Promise<Response> {
    const { settings } = this;
    const params = {
      model: settings.model,
      messages: request.messages as ChatCompletionMessageParam[],
      tools: request.tools,
      tool_choice: settings.toolChoice,
      ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
      ...(settings.maxCompletionTokens !== undefined
        ? { max_completion_tokens: settings.maxCompletionTokens }
        : {}),
    };
    const completions = this.client.chat.completions;
    return settings.stream
      ? completions
          .create({ ...params, stream: true, stream_options: { include_usage: true } }, { signal })
          .asResponse()
      : completions.create(params, { signal }).asResponse();
  }
}

/** The SDK's error classes, for `classify` (which stays SDK-free). */
const SDK = {
  // APIConnectionTimeoutError is a subclass: timeouts and refused/reset connections alike.
  isConnectionError: (e: unknown) => e instanceof APIConnectionError,
  apiStatus: (e: unknown) =>
    e instanceof APIError
      ? {
          status: typeof e.status === "number" ? e.status : null,
          headers: e.headers instanceof Headers ? e.headers : undefined,
        }
      : null,
};

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
