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
