import { z } from "zod";

/**
 * Config sections of the phone tools: `phone` (the phone being operated; its passcode is a secret) and
 * `tools` (how gestures are judged). Both are wired into the main schema in `src/config/schema.ts`.
 */

export const phoneConfigSchema = z
  .strictObject({
    passcode: z
      .string()
      .regex(/^\d{4,6}$/, "must be 4 to 6 digits")
      .optional()
      .describe(
        "Passcode `unlock_phone` types (secret: never logged, never in a tool result). Prefer `passcodeFile` or the `PICLAW_PHONE_PASSCODE` environment variable, which win over this key. Default on the simulated rig: `sim.phone.passcode`.",
      ),
    passcodeFile: z
      .string()
      .min(1)
      .optional()
      .describe(
        "File whose first line is the passcode (keep it mode 0600; relative to the config file). Wins over `passcode`; `PICLAW_PHONE_PASSCODE` wins over both.",
      ),
  })
  .describe("The phone PiClaw operates.");

export const toolsConfigSchema = z
  .strictObject({
    settleMs: z
      .number()
      .int()
      .min(0)
      .max(5000)
      .default(250)
      .describe(
        "A gesture's result is judged on a camera frame taken at least this long after the stylus lifted, so UI animations have finished (ms).",
      ),
  })
  .describe("The phone tools (peek, tap, swipe, …).");

export type PhoneConfig = z.output<typeof phoneConfigSchema>;
export type ToolsConfig = z.output<typeof toolsConfigSchema>;
