import { z } from "zod";

/** The `server:` config section: where the one HTTP server (MCP, dashboard, health) listens. */
export const serverConfigSchema = z
  .strictObject({
    host: z.string().min(1).default("127.0.0.1").describe("Address the HTTP server binds (MCP at /mcp)."),
    port: z
      .number()
      .int()
      .min(0)
      .max(65535)
      .default(8048)
      .describe("TCP port (0 = any free port, for tests)."),
  })
  .describe("The HTTP server.");
