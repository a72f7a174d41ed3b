import { PiclawError } from "../../util/errors.js";

type TomlValue = string | number | boolean | string[];

/**
 * The TOML that `custom.toml` uses (raspberrypi-sys-mods' init_config): `[section]` headers, and
 * `key = "string" | 'string' | integer | true | false | ["a", "b"]` on one line each, `#` comments.
 * Anything else is rejected with its line number rather than guessed at (no TOML package is a
 * dependency of PiClaw, and a first-boot file should fail loudly).
 */
export function parseTomlSubset(text: string): Record<string, TomlValue | Record<string, TomlValue>> {
  const doc: Record<string, TomlValue | Record<string, TomlValue>> = {};
  let table: Record<string, TomlValue | Record<string, TomlValue>> | Record<string, TomlValue> = doc;
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = stripComment(raw).trim();
    if (line === "") continue;
    const fail = (why: string): never => {
      throw new PiclawError("BOOT_SETTINGS_INVALID", `custom.toml line ${index + 1}: ${why}`);
    };
    const header = /^\[([A-Za-z0-9_-]+)\]$/.exec(line);
    if (header?.[1]) {
      const section: Record<string, TomlValue> = {};
      doc[header[1]] = section;
      table = section;
      continue;
    }
    const pair = /^([A-Za-z0-9_-]+)\s*=\s*(.+)$/.exec(line);
    const key = pair?.[1] ?? fail("expected `key = value` or `[section]`");
    const text = (pair?.[2] ?? "").trim();
    table[key] = parseValue(text) ?? fail(`unsupported value ${text}`);
  }
  return doc;
}

function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line.charAt(i);
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "#") return line.slice(0, i);
  }
  return line;
}

function parseValue(text: string): TomlValue | undefined {
  if (text === "true") return true;
  if (text === "false") return false;
  if (/^-?\d+$/.test(text)) return Number(text);
  const str = parseString(text);
  if (str !== undefined) return str;
  if (text.startsWith("[") && text.endsWith("]")) {
    const inner = text.slice(1, -1).trim();
    if (inner === "") return [];
    const items = inner
      .split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)
      .map((s) => s.trim())
      .filter((s) => s !== "");
    const strings = items.map(parseString);
    return strings.every((s): s is string => s !== undefined) ? strings : undefined;
  }
  return undefined;
}

function parseString(text: string): string | undefined {
  if (text.length >= 2 && text.startsWith("'") && text.endsWith("'")) return text.slice(1, -1);
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    return text.slice(1, -1).replace(/\\(["\\nt])/g, (_, c: string) => ({ n: "\n", t: "\t" })[c] ?? c);
  }
  return undefined;
}
