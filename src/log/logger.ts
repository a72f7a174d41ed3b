/**
 * Namespaced logger. Human-readable lines on a terminal, JSON lines otherwise (journald keeps them
 * as-is, and a `<N>` syslog prefix sets the journal priority when stdout is the journal). Secrets are
 * redacted twice: by field name (a key ending in token, key, passcode, password…) and by value (every
 * string registered with `addSecret`, as a whole token: longest first, so a key that contains the
 * passcode goes whole, and never inside a longer run of digits or letters — a 4-digit passcode must
 * not eat into a session id like `20261125-123415-4ed4`, a count or a timestamp).
 */

export type LogLevel = "trace" | "debug" | "info" | "warn" | "error";
export type LogFormat = "human" | "json";
export type LogFields = Record<string, unknown>;

const LEVELS: Record<LogLevel, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50 };
/** syslog priorities for journald's `SyslogLevelPrefix=`. */
const SYSLOG: Record<LogLevel, number> = { trace: 7, debug: 7, info: 6, warn: 4, error: 3 };
/**
 * Field names whose values are secrets. Anchored at the end so `tokens` (a count), `maxTokens` or
 * `passcodeFrom` (where it came from) stay readable while `token`, `cliToken`, `apiKey` do not.
 */
const SECRET_KEY =
  /(pass(code|word|phrase)?|secrets?|token|api[-_]?key|authorization|cookies?|credentials?|set-cookie)$/i;
export const REDACTED = "[redacted]";

export interface LogSink {
  write(line: string): void;
}

export interface LoggerOptions {
  level: LogLevel;
  format: LogFormat;
  sink: LogSink;
  /** Milliseconds since the epoch for timestamps (injected; tests pass a fixed clock). */
  now: () => number;
  /** Prefix JSON lines with `<N>` so journald records the level (set when stdout is the journal). */
  syslogPrefix?: boolean;
}

/** Shared state of one logger tree: the options and the set of secret values to scrub. */
class LogCore {
  readonly secrets = new Set<string>();
  /** One regex over every secret (longest first), rebuilt when a secret is added. */
  pattern: RegExp | null = null;
  constructor(readonly options: LoggerOptions) {}

  add(value: string): void {
    if (this.secrets.has(value)) return;
    this.secrets.add(value);
    const alternatives = [...this.secrets]
      .sort((a, b) => b.length - a.length)
      .map((secret) => {
        const body = secret.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        // A digits-only secret is a whole number: not inside a longer digit run. Any other secret is
        // a whole word: not glued to a letter or digit on either side.
        return /^\d+$/.test(secret) ? `(?<!\\d)${body}(?!\\d)` : `(?<![A-Za-z0-9])${body}(?![A-Za-z0-9])`;
      });
    this.pattern = new RegExp(alternatives.join("|"), "g");
  }
}

export class Logger {
  private constructor(
    private readonly core: LogCore,
    readonly namespace: string,
  ) {}

  static create(options: LoggerOptions, namespace = "piclaw"): Logger {
    return new Logger(new LogCore(options), namespace);
  }

  /** A logger for a sub-part, e.g. `log.child("sim.camera")` → namespace `piclaw.sim.camera`. */
  child(name: string): Logger {
    return new Logger(this.core, `${this.namespace}.${name}`);
  }

  /** Register a secret value: it is replaced by `[redacted]` in every later message and field. */
  addSecret(value: string | undefined | null): void {
    if (value && value.length >= 3) this.core.add(value);
  }

  isEnabled(level: LogLevel): boolean {
    return LEVELS[level] >= LEVELS[this.core.options.level];
  }

  trace(msg: string, fields?: LogFields): void {
    this.log("trace", msg, fields);
  }
  debug(msg: string, fields?: LogFields): void {
    this.log("debug", msg, fields);
  }
  info(msg: string, fields?: LogFields): void {
    this.log("info", msg, fields);
  }
  warn(msg: string, fields?: LogFields): void {
    this.log("warn", msg, fields);
  }
  error(msg: string, fields?: LogFields): void {
    this.log("error", msg, fields);
  }

  log(level: LogLevel, msg: string, fields: LogFields = {}): void {
    if (!this.isEnabled(level)) return;
    const { options } = this.core;
    const time = new Date(options.now());
    const cleanMsg = this.scrubString(msg);
    const cleanFields = this.scrubFields(fields, 0) as LogFields;
    if (options.format === "json") {
      const record = { ts: time.toISOString(), level, ns: this.namespace, msg: cleanMsg, ...cleanFields };
      const prefix = options.syslogPrefix ? `<${SYSLOG[level]}>` : "";
      options.sink.write(`${prefix}${JSON.stringify(record)}\n`);
      return;
    }
    const hhmmss = time.toISOString().slice(11, 23);
    const extras = Object.entries(cleanFields)
      .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
      .join(" ");
    options.sink.write(
      `${hhmmss} ${level.toUpperCase().padEnd(5)} ${this.namespace} ${cleanMsg}${extras ? ` ${extras}` : ""}\n`,
    );
  }

  /** `text` with every registered secret replaced by `[redacted]` (for traces and other files). */
  redact(text: string): string {
    return this.scrubString(text);
  }

  private scrubString(text: string): string {
    const { pattern } = this.core;
    return pattern ? text.replace(pattern, REDACTED) : text;
  }

  private scrubFields(value: unknown, depth: number): unknown {
    if (typeof value === "string") return this.scrubString(value);
    if (value instanceof Error) {
      return {
        name: value.name,
        message: this.scrubString(value.message),
        code: (value as { code?: unknown }).code,
      };
    }
    if (depth > 5 || value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) return value.map((v) => this.scrubFields(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = SECRET_KEY.test(k) ? REDACTED : this.scrubFields(v, depth + 1);
    }
    return out;
  }
}

/**
 * A logger for the process, writing to `stream` (stdout by default; stderr for programs whose stdout
 * carries data). Format `auto` resolves to human on a TTY, JSON otherwise.
 */
export function processLogger(
  level: LogLevel,
  format: "auto" | LogFormat,
  env: NodeJS.ProcessEnv,
  stream: NodeJS.WriteStream = process.stdout,
): Logger {
  const resolved: LogFormat = format === "auto" ? (stream.isTTY ? "human" : "json") : format;
  return Logger.create({
    level,
    format: resolved,
    sink: { write: (line) => stream.write(line) },
    now: () => Date.now(),
    syslogPrefix: resolved === "json" && Boolean(env.JOURNAL_STREAM),
  });
}
