import { z } from "zod";

const doctorSchema = z
  .strictObject({
    calibrationMaxAgeDays: z
      .number()
      .min(0)
      .max(3650)
      .default(30)
      .describe(
        "`piclaw doctor` warns when the calibration bundle is older than this many days (0 = never).",
      ),
    minFreeMb: z
      .number()
      .int()
      .min(0)
      .default(200)
      .describe("`piclaw doctor` fails when the state directory's file system has less free space (MB)."),
    warnFreeMb: z
      .number()
      .int()
      .min(0)
      .default(1000)
      .describe("`piclaw doctor` warns when the state directory's file system has less free space (MB)."),
  })
  .describe("Thresholds of `piclaw doctor`.");

/** How the daemon talks to its supervisor (systemd notify, watchdog). */
export const serviceConfigSchema = z
  .strictObject({
    notify: z
      .enum(["auto", "off"])
      .default("auto")
      .describe(
        "Tell systemd about start-up, watchdog and shutdown (`auto`: whenever `$NOTIFY_SOCKET` is set, as under `Type=notify`; `off`: never).",
      ),
    notifyCommand: z
      .string()
      .min(1)
      .default("systemd-notify")
      .describe(
        "The program that sends the notifications (systemd's own `systemd-notify`; the unit needs `NotifyAccess=all`).",
      ),
    notifyBarrier: z
      .boolean()
      .default(true)
      .describe(
        "Let `systemd-notify` wait until systemd has processed each message (its default), so a message from the short-lived helper is never dropped as unattributable; `false` passes `--no-block`.",
      ),
    notifyTimeoutMs: z
      .number()
      .int()
      .min(100)
      .max(120_000)
      .default(10_000)
      .describe("Kill a notification helper that has not finished after this many milliseconds."),
    watchdog: z
      .boolean()
      .default(true)
      .describe(
        "Send `WATCHDOG=1` at half the unit's `WatchdogSec=` (from `$WATCHDOG_USEC`) from the event loop, so systemd restarts a hung daemon.",
      ),
    doctor: doctorSchema.prefault({}),
  })
  .describe("How the daemon talks to its supervisor (systemd notify, watchdog) and `piclaw doctor`.");

export type ServiceConfig = z.infer<typeof serviceConfigSchema>;
