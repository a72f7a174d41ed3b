import { z } from "zod";
import { agentConfigSchema } from "../../agent/config.js";
import { bridgeConfigSchema } from "../../bridge/config.js";
import { calibrationConfigSchema } from "../../calibration/config.js";
import { cameraConfigSchema } from "../../camera/options.js";
import { jobsConfigSchema } from "../../jobs/config.js";
import { mcpConfigSchema } from "../../mcp/config.js";
import { memoryConfigSchema } from "../../memory/config.js";
import { phoneOwnerConfigSchema } from "../../rig/owner.js";
import { runtimeConfigSchema } from "../../runtime/config.js";
import { timeZoneSchema } from "../../shared/time-zone.js";
import { simConfigSchema } from "../../sim/config.js";
import { phoneConfigSchema, toolsConfigSchema } from "../../tools/config.js";
import { visionConfigSchema } from "../../vision/config.js";
import { dashboardConfigSchema } from "../../web/config.js";
import { serviceConfigSchema } from "../config.js";

/**
 * The one PiClaw configuration file (YAML). Every key has a default here and a description that
 * `piclaw config doc` turns into the README's configuration reference, so the two cannot drift.
 * Unknown keys are rejected: a typo must fail at start, not be silently ignored.
 */

const logSchema = z
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

const serverSchema = z
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

const rigSchema = z
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

export const configSchema = z.strictObject({
  stateDir: z
    .string()
    .min(1)
    .optional()
    .describe(
      "State directory. Default: `$STATE_DIRECTORY` under systemd, else `/var/lib/piclaw` under systemd, else `~/.piclaw`.",
    ),
  timeZone: timeZoneSchema,
  log: logSchema.prefault({}),
  server: serverSchema.prefault({}),
  rig: rigSchema.prefault({}),
  arm: phoneOwnerConfigSchema.prefault({}),
  camera: cameraConfigSchema.prefault({}),
  vision: visionConfigSchema.prefault({}),
  calibration: calibrationConfigSchema.prefault({}),
  mcp: mcpConfigSchema.prefault({}),
  bridge: bridgeConfigSchema.prefault({}),
  phone: phoneConfigSchema.prefault({}),
  tools: toolsConfigSchema.prefault({}),
  agent: agentConfigSchema.prefault({}),
  jobs: jobsConfigSchema.prefault({}),
  runtime: runtimeConfigSchema.prefault({}),
  memory: memoryConfigSchema.prefault({}),
  service: serviceConfigSchema.prefault({}),
  dashboard: dashboardConfigSchema.prefault({}),
  sim: simConfigSchema.prefault({}),
});

export type PiclawConfig = z.infer<typeof configSchema>;
