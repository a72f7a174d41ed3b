import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { parse as parseYaml, YAMLParseError } from "yaml";
import type { z } from "zod";
import { PiclawError } from "../../util/errors.js";
import { configOverlayPath, mergeDocuments, readConfigOverlay } from "./overlay.js";
import { configSchema, type PiclawConfig } from "./schema.js";

/** Where the config came from, for the start-up log line. */
export interface LoadedConfig {
  config: PiclawConfig;
  /** Absolute path of the file read, or null when running on defaults. */
  path: string | null;
  stateDir: string;
  /** The setup wizard's overlay merged over the file (`<stateDir>/config-overlay.yaml`), when there was one. */
  overlayPath?: string;
}

export interface ConfigSources {
  /** `--config` from the command line (wins over the environment). */
  flagPath?: string | undefined;
  env: NodeJS.ProcessEnv;
  /** Working directory for relative paths. */
  cwd: string;
}

/** Validate an already-parsed document. Throws CONFIG_INVALID naming the first bad key path. */
export function parseConfig(doc: unknown, source = "config"): PiclawConfig {
  const result = configSchema.safeParse(doc ?? {});
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({ path: keyPath(issue), reason: issueReason(issue) }));
  const first = issues[0];
  const summary = issues.map((i) => `${i.path}: ${i.reason}`).join("; ");
  throw new PiclawError("CONFIG_INVALID", `${source}: invalid config: ${summary}`, {
    path: first?.path,
    issues,
  });
}

function keyPath(issue: z.core.$ZodIssue): string {
  const parts = issue.path.map((p) => (typeof p === "number" ? `[${p}]` : String(p)));
  if (issue.code === "unrecognized_keys" && issue.keys.length > 0) parts.push(issue.keys.join(","));
  const path = parts.join(".").replace(/\.\[/g, "[");
  return path === "" ? "(root)" : path;
}

function issueReason(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys") return "unknown key";
  return issue.message;
}

/**
 * Read, parse and validate the config file named by `--config` or `PICLAW_CONFIG` (or use defaults),
 * then merge the setup wizard's overlay from the state directory over it (see `config/overlay.ts`) and
 * validate the result again: a key the overlay makes invalid fails the start like a bad file would.
 */
export function loadConfig(sources: ConfigSources): LoadedConfig {
  const named = sources.flagPath ?? sources.env.PICLAW_CONFIG;
  let config: PiclawConfig;
  let doc: unknown = {};
  let path: string | null = null;
  if (named) {
    path = resolve(sources.cwd, named);
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (err) {
      throw new PiclawError(
        "CONFIG_UNREADABLE",
        `cannot read config file ${path}: ${(err as Error).message}`,
        {
          path,
        },
      );
    }
    doc = parseYamlText(text, path);
    config = parseConfig(doc, path);
  } else {
    config = parseConfig({}, "defaults");
  }
  const stateDir = resolveStateDir(config, sources);
  const overlay = readConfigOverlay(stateDir);
  if (!overlay) return { config, path, stateDir };
  const overlayPath = configOverlayPath(stateDir);
  config = parseConfig(mergeDocuments(doc ?? {}, overlay), `${path ?? "defaults"} + ${overlayPath}`);
  return { config, path, stateDir, overlayPath };
}

function parseYamlText(text: string, path: string): unknown {
  try {
    return parseYaml(text);
  } catch (err) {
    if (err instanceof YAMLParseError) {
      const line = err.linePos?.[0]?.line;
      throw new PiclawError(
        "CONFIG_INVALID",
        `${path}${line ? `:${line}` : ""}: not valid YAML: ${err.message}`,
        {
          path,
          line,
        },
      );
    }
    throw err;
  }
}

/**
 * The state directory: the config's `stateDir` if set; under systemd the unit's `StateDirectory=`
 * (`$STATE_DIRECTORY`) or `/var/lib/piclaw`; otherwise `~/.piclaw`.
 */
export function resolveStateDir(config: PiclawConfig, sources: ConfigSources): string {
  if (config.stateDir) return resolve(sources.cwd, expandHome(config.stateDir, sources.env));
  const systemdDir = sources.env.STATE_DIRECTORY?.split(":")[0];
  if (systemdDir) return systemdDir;
  if (sources.env.INVOCATION_ID) return "/var/lib/piclaw";
  return join(sources.env.HOME ?? homedir(), ".piclaw");
}

function expandHome(p: string, env: NodeJS.ProcessEnv): string {
  return p === "~" || p.startsWith("~/") ? join(env.HOME ?? homedir(), p.slice(1)) : p;
}
