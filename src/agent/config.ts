import { z } from "zod";

/** The built-in agent loop (provider, budgets, context folding). */
export const agentConfigSchema = z
  .strictObject({})
  .describe("The built-in agent loop (provider, budgets, context folding).");

export type AgentConfig = z.infer<typeof agentConfigSchema>;
