import { join, resolve } from "node:path";
import type { Clock } from "../util/clock.js";
import { projectRoot } from "../util/paths.js";
import type { MemoryConfig } from "./config.js";
import { SkillLibrary } from "./skills.js";
import { MemoryStore } from "./store.js";

export type { MemoryConfig } from "./config.js";
export { SkillLibrary } from "./skills.js";
export { MemoryStore } from "./store.js";

/** The memory store and skill library the config describes, over `stateDir`. */
export function createMemory(
  config: MemoryConfig,
  deps: {
    stateDir: string;
    clock: Clock;
    timeZone?: string | undefined;
    redact?: (text: string) => string;
  },
): { memory: MemoryStore; skills: SkillLibrary } {
  return {
    memory: new MemoryStore({
      stateDir: deps.stateDir,
      clock: deps.clock,
      softCapBytes: config.softCapBytes,
      hardCapBytes: config.hardCapBytes,
      timeZone: deps.timeZone,
      ...(deps.redact ? { redact: deps.redact } : {}),
    }),
    skills: new SkillLibrary({
      bundledDir: join(projectRoot(), "skills"),
      userDir: resolve(deps.stateDir, config.userSkillsDir ?? "skills"),
    }),
  };
}
