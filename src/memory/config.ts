import { z } from "zod";

/** The agent's persistent memory (memory.md, USER.md, daily logs) and skills. */
export const memoryConfigSchema = z
  .strictObject({})
  .describe("The agent's persistent memory (memory.md, USER.md, daily logs) and skills.");

export type MemoryConfig = z.infer<typeof memoryConfigSchema>;
