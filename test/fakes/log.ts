import { Logger, type LogLevel } from "../../src/log/logger.js";

/**
 * A logger for tests that writes nowhere. Each call returns a fresh one, so a test that registers
 * secrets or children on it never leaks them into another test.
 */
export function quietLog(level: LogLevel = "error"): Logger {
  return Logger.create({ level, format: "human", sink: { write() {} }, now: Date.now });
}
