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
    hardCapBytes: z
      .number()
      .int()
      .min(1024)
      .max(2_097_152)
      .default(16_384)
      .describe(
        "Hard size cap of memory.md (bytes). A save_memory/update_memory that would make it larger is refused (nothing is written) with a message asking the agent to merge or drop old facts first; memory.md goes into every system prompt, so this bounds every request.",
      ),
    userSkillsDir: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Folder of the user's own skills (one folder with a SKILL.md each); a user skill shadows a bundled one of the same name. Relative to the state directory; default `skills` (i.e. `<stateDir>/skills/`).",
      ),
  })
  .refine((c) => c.hardCapBytes >= c.softCapBytes, {
    message: "hardCapBytes must be at least softCapBytes",
    path: ["hardCapBytes"],
  })
  .describe(
    "The agent's persistent memory (memory.md, USER.md and daily logs under `memory/` in the state directory) and skills.",
  );

export type MemoryConfig = z.infer<typeof memoryConfigSchema>;
