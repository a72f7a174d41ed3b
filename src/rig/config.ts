import { z } from "zod";

/**
 * The rig's config sections: `rig:` (which rig drives the phone, and its profile and serial port) and
 * `arm:` (how callers share the arm, read by the PhoneOwner).
 */

/** The `rig:` config section. */
export const rigConfigSchema = z
  .strictObject({
    backend: z
      .enum(["sim", "hardware"])
      .default("sim")
      .describe(
        "Which rig drives the phone: `sim` is the simulated rig (phone, camera and gantry in this process); `hardware` is a real Pi rig: the motion driver named by the rig profile (a GRBL/FluidNC board on serial, or direct GPIO through pigpio), the real camera (`camera.vidBinary`), and the phone-side bridge for clipboard and screenshots.",
      ),
    profile: z
      .string()
      .min(1)
      .default("corexy-fluidnc")
      .describe("Rig profile: a name in `calibration/profiles/` or a path to a profile YAML file."),
    serialPath: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Serial device of the GRBL/FluidNC board (`rig.backend: hardware` with a `grbl` profile), e.g. `/dev/ttyUSB0` or a stable `/dev/serial/by-id/…` link. Wins over the profile's `serial.path`; without either the board is found by the profile's `serial.usbIds`.",
      ),
    baudRate: z
      .number()
      .int()
      .min(1200)
      .max(4_000_000)
      .optional()
      .describe("Baud rate of the board's serial port. Default: the profile's `serial.baudRate` (115200)."),
  })
  .describe("The physical (or simulated) rig.");

export type RigConfig = z.output<typeof rigConfigSchema>;

/** The `arm:` config section: the PhoneOwner's priority classes, aging and wait limits. */
export const phoneOwnerConfigSchema = z
  .strictObject({
    classes: z
      .array(z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/, "must be a short lower-case name"))
      .min(1)
      .max(8)
      .refine((names) => new Set(names).size === names.length, "class names must be unique")
      .default(["local", "scheduled", "remote"])
      .describe(
        "Priority classes of callers of the arm, most urgent first (the built-in agent is `local`, scheduled jobs `scheduled`, MCP clients `remote`).",
      ),
    agingMs: z
      .number()
      .int()
      .min(1000)
      .max(3_600_000)
      .default(30_000)
      .describe(
        "Anti-starvation: a waiting caller moves up one class per this many milliseconds of waiting.",
      ),
    waitLimitMs: z
      .number()
      .int()
      .min(0)
      .max(3_600_000)
      .default(60_000)
      .describe("How long a caller waits for the arm before giving up with a `busy` error (ms)."),
    progressIntervalMs: z
      .number()
      .int()
      .min(100)
      .max(60_000)
      .default(5_000)
      .describe("While waiting, a caller is told its place in line at least this often (ms)."),
  })
  .describe("Sharing the arm between callers.");

export type PhoneOwnerOptions = z.output<typeof phoneOwnerConfigSchema>;
