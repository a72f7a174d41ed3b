import { z } from "zod";

/** The agent's persistent memory (memory.md, USER.md, daily logs) and skills. */
export const memoryConfigSchema = z
  .strictObject({
    softCapBytes: z
      .number()
      .int()
      .min(512)
      .max(1_048_576)
      .default(8192)
      .describe(
        "Soft size cap of memory.md (bytes). Past it, save_memory/update_memory still write everything but return a warning asking the agent to fold or drop old facts.",
      ),
    timeZone: z
      .string()
      .min(1)
      .optional()
      .refine(
        (zone) => zone === undefined || isTimeZone(zone),
        "must be an IANA time zone, e.g. Europe/Berlin",
      )
      .describe(
        "IANA time zone that names the daily log files (`YYYY-MM-DD.md`) and stamps their lines. Default: this machine's zone.",
      ),
    userSkillsDir: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Folder of the user's own skills (one folder with a SKILL.md each); a user skill shadows a bundled one of the same name. Relative to the state directory; default `skills` (i.e. `<stateDir>/skills/`).",
      ),
  })
  .describe(
    "The agent's persistent memory (memory.md, USER.md and daily logs under `memory/` in the state directory) and skills.",
  );

export type MemoryConfig = z.infer<typeof memoryConfigSchema>;

/** True when `zone` is a time zone this Node's Intl knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
