import { join, resolve } from "node:path";
import type { Clock } from "../util/clock.js";
import { projectRoot } from "../util/paths.js";
import type { MemoryConfig } from "./config.js";
import { SkillLibrary } from "./skills.js";
import { MemoryStore } from "./store.js";

export { type MemoryConfig, memoryConfigSchema } from "./config.js";
export {
  type ParsedSkill,
  parseSkill,
  SKILL_NAME,
  type SkillEntry,
  SkillLibrary,
  type SkillLibraryOptions,
  type SkillScan,
} from "./skills.js";
export {
  MAX_FACT_CHARS,
  type MemoryPaths,
  MemoryStore,
  type MemoryStoreOptions,
  memoryPaths,
} from "./store.js";
export { isIsoDate, type ZoneTime, zoneTime } from "./zone-time.js";

/** The memory store and skill library the config describes, over `stateDir`. */
export function createMemory(
  config: MemoryConfig,
  deps: { stateDir: string; clock: Clock; timeZone?: string | undefined },
): { memory: MemoryStore; skills: SkillLibrary } {
  return {
    memory: new MemoryStore({
      stateDir: deps.stateDir,
      clock: deps.clock,
      softCapBytes: config.softCapBytes,
      hardCapBytes: config.hardCapBytes,
      timeZone: deps.timeZone,
    }),
    skills: new SkillLibrary({
      bundledDir: join(projectRoot(), "skills"),
      userDir: resolve(deps.stateDir, config.userSkillsDir ?? "skills"),
    }),
  };
}
