import { stringify as toYaml } from "yaml";
import { REDACTED } from "../../log/logger.js";
import { PiclawError } from "../../util/errors.js";
import { configReferenceMarkdown } from "../config/doc.js";
import type { LoadedConfig } from "../config/load.js";

/** `piclaw config validate [FILE] | show | doc`. Returns the exit code. */
export async function configCommand(
  sub: string | undefined,
  arg: string | undefined,
  load: (p?: string) => Promise<LoadedConfig>,
): Promise<number> {
  if (sub === "doc") {
    process.stdout.write(`${configReferenceMarkdown()}\n`);
    return 0;
  }
  if (sub === "validate") {
    const loaded = await load(arg);
    process.stdout.write(`ok: ${loaded.path ?? "(defaults)"}\n`);
    return 0;
  }
  if (sub === "show") {
    const { config, stateDir } = await load();
    const shown = {
      ...config,
      stateDir,
      sim: { ...config.sim, phone: { ...config.sim.phone, passcode: REDACTED } },
      phone: { ...config.phone, ...(config.phone.passcode ? { passcode: REDACTED } : {}) },
    };
    process.stdout.write(toYaml(shown));
    return 0;
  }
  throw new PiclawError("USAGE", `unknown config command: ${sub ?? "(none)"} (validate, show, doc)`);
}
