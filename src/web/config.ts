import { z } from "zod";

/** The dashboard page served at / on the MCP port. */
export const dashboardConfigSchema = z
  .strictObject({})
  .describe("The dashboard page served at / on the MCP port.");

export type DashboardConfig = z.infer<typeof dashboardConfigSchema>;
