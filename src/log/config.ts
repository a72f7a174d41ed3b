import { z } from "zod";

/** The `log:` config section: what the process logger writes, and in which form. */
export const logConfigSchema = z
  .strictObject({
    level: z
      .enum(["trace", "debug", "info", "warn", "error"])
      .default("info")
      .describe("Lowest level written."),
    format: z
      .enum(["auto", "human", "json"])
      .default("auto")
      .describe(
        "`human` on a terminal, `json` lines otherwise (journald); `auto` picks by whether stdout is a TTY.",
      ),
  })
  .describe("Logging.");
