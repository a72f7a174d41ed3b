import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import type { AgentSkills, SkillInfo } from "../agent/ports.js";
import { errorMessage, PiclawError } from "../util/errors.js";

/** A skill found on disk: what the index shows plus where it lives. */
export interface SkillEntry extends SkillInfo {
  /** Absolute path of its SKILL.md. */
  file: string;
}

export interface SkillScan {
  /** Usable skills, sorted by name; a user skill has replaced a bundled one of the same name. */
  skills: SkillEntry[];
  /** SKILL.md files that could not be used (PiclawError SKILL_INVALID naming the file and field). */
  problems: PiclawError[];
}

export interface SkillLibraryOptions {
  /** The app's bundled skills (`skills/` in the project). */
  bundledDir: string;
  /** The user's skills (`<stateDir>/skills` by default); missing folder = none. */
  userDir: string;
}

/** Skill names: short, lower-case, usable as a folder name and as a load_skill argument. */
export const SKILL_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const MAX_DESCRIPTION = 300;

/**
 * SKILL.md workflows. Each skill is a folder holding a SKILL.md that starts with YAML front matter
 * between `---` lines: `name` (must equal the folder name) and `description` (one line: when to use
 * it); the rest is the body, returned verbatim by `load`. Files are read on every call, so a skill
 * the user adds or edits is visible at the next session without a restart. A broken user skill is
 * reported by `scan` and left out of the index (a bundled skill of that name stays visible).
 */
export class SkillLibrary implements AgentSkills {
  constructor(private readonly options: SkillLibraryOptions) {}

  async index(): Promise<SkillInfo[]> {
    return (await this.scan()).skills.map(({ name, description, source }) => ({ name, description, source }));
  }

  async load(name: string): Promise<string> {
    const entry = (await this.scan()).skills.find((s) => s.name === name);
    if (!entry) {
      const known = (await this.index()).map((s) => s.name);
      throw new PiclawError(
        "SKILL_NOT_FOUND",
        `no skill named ${JSON.stringify(name)}; known skills: ${known.join(", ") || "(none)"}`,
        { name, known },
      );
    }
    return parseSkill(await readFile(entry.file, "utf8"), entry.file, entry.name).body;
  }

  /** Every skill folder of both sources, validated. */
  async scan(): Promise<SkillScan> {
    const problems: PiclawError[] = [];
    const byName = new Map<string, SkillEntry>();
    for (const source of ["bundled", "user"] as const) {
      const dir = source === "bundled" ? this.options.bundledDir : this.options.userDir;
      for (const folder of await subfolders(dir)) {
        const file = join(dir, folder, "SKILL.md");
        let text: string;
        try {
          text = await readFile(file, "utf8");
        } catch {
          continue; // a folder without SKILL.md is not a skill (assets, notes)
        }
        try {
          const { name, description } = parseSkill(text, file, folder);
          byName.set(name, { name, description, source, file });
        } catch (err) {
          problems.push(
            err instanceof PiclawError
              ? err
              : new PiclawError("SKILL_INVALID", `${file}: ${errorMessage(err)}`, { file }),
          );
        }
      }
    }
    const skills = [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
    return { skills, problems };
  }
}

/** A parsed SKILL.md. */
export interface ParsedSkill {
  name: string;
  description: string;
  body: string;
}

/**
 * Split and validate one SKILL.md. `folder` is the folder name the `name` field must equal. Throws
 * PiclawError SKILL_INVALID whose message names the file and the field at fault.
 */
export function parseSkill(text: string, file: string, folder: string): ParsedSkill {
  const bad = (field: string, why: string): PiclawError =>
    new PiclawError("SKILL_INVALID", `${file}: ${field} ${why}`, { file, field });
  const m = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m)
    throw bad("front matter", "is missing: the file must start with a `---` line, YAML, and a closing `---`");
  let meta: unknown;
  try {
    meta = parseYaml(m[1] ?? "");
  } catch (err) {
    throw bad("front matter", `is not valid YAML (${errorMessage(err).split("\n")[0]})`);
  }
  if (typeof meta !== "object" || meta === null || Array.isArray(meta))
    throw bad("front matter", "must be a YAML mapping with name and description");
  const fields = meta as Record<string, unknown>;
  const { name, description } = fields;
  if (typeof name !== "string" || !name.trim()) throw bad("name", "is missing or not a string");
  if (!SKILL_NAME.test(name)) throw bad("name", `${JSON.stringify(name)} must match ${SKILL_NAME.source}`);
  if (name !== folder)
    throw bad("name", `${JSON.stringify(name)} must equal its folder name ${JSON.stringify(folder)}`);
  if (typeof description !== "string" || !description.trim())
    throw bad("description", "is missing or not a string");
  if (description.length > MAX_DESCRIPTION || /\n./.test(description.trim()))
    throw bad("description", `must be one line of at most ${MAX_DESCRIPTION} characters`);
  const body = text.slice(m[0].length).replace(/^\s*\n/, "");
  if (!body.trim()) throw bad("body", "is empty: the workflow goes below the front matter");
  return { name, description: description.trim(), body };
}

async function subfolders(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isDirectory() && !e.name.startsWith("."))
      .map((e) => e.name)
      .sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
}
