import { isAbsolute, join } from "node:path";
import { z } from "zod";

/**
 * The `bridge:` config section: the small web page the phone itself opens (clipboard, screenshot
 * uploads, touch reports, calibration patterns). Off by default; it listens on its own port so the
 * phone can reach it over the LAN while the MCP server stays on loopback.
 */
export const bridgeConfigSchema = z
  .strictObject({
    enabled: z
      .boolean()
      .default(false)
      .describe("Serve the phone-side bridge page (pair the phone with `piclaw bridge pair`)."),
    host: z
      .string()
      .min(1)
      .default("0.0.0.0")
      .describe("Address the bridge binds; the phone must reach it over the LAN (plain HTTP)."),
    port: z
      .number()
      .int()
      .min(0)
      .max(65535)
      .default(8049)
      .describe("TCP port of the bridge page (0 = any free port, for tests)."),
    pairCodeTtlSeconds: z
      .number()
      .int()
      .min(30)
      .max(3600)
      .default(600)
      .describe("How long a code from `piclaw bridge pair` stays valid (seconds); it works once."),
    pairAttemptsPerMinute: z
      .number()
      .int()
      .min(1)
      .max(600)
      .default(6)
      .describe(
        "Pairing attempts allowed per minute per client address (four times that in all); over it, HTTP 429.",
      ),
    deviceFile: z
      .string()
      .min(1)
      .default("bridge-devices.json")
      .describe(
        "Paired phones' credentials (hashed) and the pending pair code (hashed, beside it with `.pair` added); relative to the state directory.",
      ),
    maxUploadBytes: z
      .number()
      .int()
      .min(64 * 1024)
      .max(64 * 1024 * 1024)
      .default(12 * 1024 * 1024)
      .describe("Largest screenshot upload (PNG or JPEG); larger ones get HTTP 413."),
    maxClipboardChars: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .default(10_000)
      .describe("Longest text `queueClipboard` accepts."),
    pollWaitMs: z
      .number()
      .int()
      .min(1000)
      .max(60_000)
      .default(25_000)
      .describe("How long the page's long-poll waits for news before it asks again (ms)."),
    ackTimeoutMs: z
      .number()
      .int()
      .min(100)
      .max(120_000)
      .default(10_000)
      .describe(
        "How long the server waits for the page to confirm it shows a pattern or queued clipboard text (ms); after that the page counts as not open.",
      ),
    screenshotTimeoutMs: z
      .number()
      .int()
      .min(100)
      .max(300_000)
      .default(30_000)
      .describe("How long `screenshot()` through the bridge waits for the phone's upload (ms)."),
  })
  .describe("The phone-side bridge: a page the phone opens for clipboard, screenshots and calibration.");

export type BridgeConfig = z.output<typeof bridgeConfigSchema>;

/** Absolute paths of the device file and the pending pair-code file. */
export function bridgeFilePaths(
  config: Pick<BridgeConfig, "deviceFile">,
  stateDir: string,
): { deviceFile: string; pairFile: string } {
  const deviceFile = isAbsolute(config.deviceFile) ? config.deviceFile : join(stateDir, config.deviceFile);
  return { deviceFile, pairFile: `${deviceFile}.pair` };
}
