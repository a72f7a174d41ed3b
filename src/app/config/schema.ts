import { z } from "zod";
import { agentConfigSchema } from "../../agent/config.js";
import { bridgeConfigSchema } from "../../bridge/config.js";
import { calibrationConfigSchema } from "../../calibration/config.js";
import { cameraConfigSchema } from "../../camera/options.js";
import { serverConfigSchema } from "../../http/config.js";
import { jobsConfigSchema } from "../../jobs/config.js";
import { logConfigSchema } from "../../log/config.js";
import { mcpConfigSchema } from "../../mcp/config.js";
import { memoryConfigSchema } from "../../memory/config.js";
import { phoneOwnerConfigSchema, rigConfigSchema } from "../../rig/config.js";
import { runtimeConfigSchema } from "../../runtime/config.js";
import { timeZoneSchema } from "../../shared/time-zone.js";
import { simConfigSchema } from "../../sim/config.js";
import { phoneConfigSchema, toolsConfigSchema } from "../../tools/config.js";
import { visionConfigSchema } from "../../vision/config.js";
import { dashboardConfigSchema } from "../../web/config.js";
import { serviceConfigSchema } from "./service.js";

/**
 * The one PiClaw configuration file (YAML). This root only composes: each section's schema lives in the
 * folder that reads it, so a module is handed its own slice and never the whole file. Every key has a
 * default and a description that `piclaw config doc` turns into the README's configuration reference,
 * so the two cannot drift. Unknown keys are rejected: a typo must fail at start, not be silently ignored.
 */

export const configSchema = z.strictObject({
  stateDir: z
    .string()
    .min(1)
    .optional()
    .describe(
      "State directory. Default: `$STATE_DIRECTORY` under systemd, else `/var/lib/piclaw` under systemd, else `~/.piclaw`.",
    ),
  timeZone: timeZoneSchema,
  log: logConfigSchema.prefault({}),
  server: serverConfigSchema.prefault({}),
  rig: rigConfigSchema.prefault({}),
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
