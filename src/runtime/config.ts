import { z } from "zod";

const zoneSchema = z
  .strictObject({
    name: z
      .string()
      .regex(/^[a-z][a-z0-9-]{0,31}$/, "must be a short lower-case name")
      .describe("Name of the band, quoted in the trigger's reason (e.g. `banner`, `dock`)."),
    top: z.number().min(0).max(1).describe("Top of the band, fraction of the screen height."),
    bottom: z.number().min(0).max(1).describe("Bottom of the band, fraction of the screen height."),
    spots: z
      .boolean()
      .default(false)
      .describe(
        "Also wake for a small mark that appears and stays (a new badge), not only for a large change.",
      ),
  })
  .refine((zone) => zone.bottom > zone.top, "bottom must be below top");

export const DEFAULT_POLL_ZONES = [
  { name: "banner", top: 0.06, bottom: 0.155, spots: false },
  { name: "list", top: 0.265, bottom: 0.5, spots: false },
  { name: "lower", top: 0.5, bottom: 0.87, spots: false },
  { name: "dock", top: 0.87, bottom: 0.97, spots: true },
];

const pollSchema = z
  .strictObject({
    enabled: z
      .boolean()
      .default(true)
      .describe("Watch the screen between sessions and wake one when something new appears."),
    intervalMs: z
      .number()
      .int()
      .min(200)
      .max(60_000)
      .default(1000)
      .describe("How often the screen is sampled while idle (ms): one camera frame, rectified small."),
    zones: z
      .array(zoneSchema)
      .min(1)
      .max(12)
      .default(DEFAULT_POLL_ZONES)
      .describe(
        "Horizontal bands of the screen that are watched. The defaults leave out the status bar (its clock ticks every minute), the lock screen's big clock (0.155–0.265) and the home indicator.",
      ),
    threshold: z
      .number()
      .min(0.5)
      .max(64)
      .default(6)
      .describe(
        "Screen-watcher sensitivity: how far (grey levels) a band's fast moving average must depart from its slow one to count as a large change.",
      ),
    blockDelta: z
      .number()
      .min(4)
      .max(128)
      .default(28)
      .describe(
        "Grey-level difference (0–255) from the settled screen at which one grid cell counts as changed.",
      ),
    minChangedFraction: z
      .number()
      .min(0.001)
      .max(1)
      .default(0.05)
      .describe("Share of a band's cells that must stay changed for a large change to wake a session."),
    persistMs: z
      .number()
      .int()
      .min(0)
      .max(60_000)
      .default(2000)
      .describe(
        "A change must stay on screen this long before it wakes a session (ms); shorter animations are ignored.",
      ),
    armSettleMs: z
      .number()
      .int()
      .min(0)
      .max(60_000)
      .default(3000)
      .describe(
        "After anyone used the arm (an MCP client, the agent), wait this long and take the screen as it then is as the new normal (ms).",
      ),
  })
  .describe(
    "The poll trigger: cheap screen statistics (no model runs) that wake a session for a new notification banner, a lock-screen notification or a new badge, but not for a clock tick or a short animation.",
  );

/** The runtime loop: triggers (cron, poll) that wake agent sessions. */
export const runtimeConfigSchema = z
  .strictObject({
    enabled: z
      .boolean()
      .default(true)
      .describe(
        "Run the trigger loop in the daemon (false: the agent only runs when asked, e.g. `piclaw run`).",
      ),
    tickMs: z
      .number()
      .int()
      .min(100)
      .max(60_000)
      .default(1000)
      .describe("How often the triggers are asked whether something happened (ms)."),
    cooldownMs: z
      .number()
      .int()
      .min(0)
      .max(600_000)
      .default(6000)
      .describe(
        "Quiet time after a session ends before the next may start (ms), so screen animations settle; triggers that arrive meanwhile wait and are merged into the next session.",
      ),
    poll: pollSchema.prefault({}),
  })
  .describe("The runtime loop: triggers (cron, poll) that wake agent sessions, one session at a time.");

export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;
export type PollConfig = RuntimeConfig["poll"];
export type PollZone = PollConfig["zones"][number];
