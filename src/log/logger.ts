/**
 * Namespaced logger. Human-readable lines on a terminal, JSON lines otherwise (journald keeps them
 * as-is, and a `<N>` syslog prefix sets the journal priority when stdout is the journal). Secrets are
 * redacted twice: by field name (anything that looks like a token, key, passcode or password) and by
 * value (every string registered with `addSecret`, wherever it appears).
 */

export type LogLevel = "trace" | "debug" | "info" | "warn" | "error";
export type LogFormat = "human" | "json";
export type LogFields = Record<string, unknown>;

const LEVELS: Record<LogLevel, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50 };
/** syslog priorities for journald's `SyslogLevelPrefix=`. */
const SYSLOG: Record<LogLevel, number> = { trace: 7, debug: 7, info: 6, warn: 4, error: 3 };
const SECRET_KEY = /pass(code|word|phrase)?|secret|token|api[-_]?key|authorization|cookie|credential/i;
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
  constructor(readonly options: LoggerOptions) {}
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
    if (value && value.length >= 3) this.core.secrets.add(value);
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
    let out = text;
    for (const secret of this.core.secrets) out = out.split(secret).join(REDACTED);
    return out;
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
