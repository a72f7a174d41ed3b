import { z } from "zod";
import { bboxSchema } from "./args.js";

/**
 * Config sections of the phone tools: `phone` (the phone being operated; its passcode is a secret) and
 * `tools` (how gestures are judged).
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
    model: z
      .enum(["iphone-6.1"])
      .default("iphone-6.1")
      .describe(
        "Geometry of the real phone (`rig.backend: hardware`; 6.1-inch: 1170×2532 px). The simulated rig uses `sim.phone.model`.",
      ),
    screenshotTap: z
      .strictObject({
        assistiveTouch: bboxSchema.describe(
          "Box [left, top, right, bottom] (0–1 screen fractions) of the AssistiveTouch button; the stylus taps its centre.",
        ),
        menuItem: bboxSchema.describe(
          "Box (0–1 screen fractions) of the AssistiveTouch menu item that runs the screenshot-upload Shortcut.",
        ),
        menuWaitMs: z
          .number()
          .int()
          .min(0)
          .max(5000)
          .default(700)
          .describe("Wait between the two taps, while the AssistiveTouch menu opens (ms)."),
      })
      .optional()
      .describe(
        "How `screenshot` makes a real phone (`rig.backend: hardware`) capture itself: the stylus taps the AssistiveTouch button, then the menu item running a Shortcut that takes a screenshot and uploads it to the bridge. Absent: `screenshot` waits for an upload started some other way (Back Tap, a Shortcut automation).",
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
