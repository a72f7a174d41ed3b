import { type BridgeConfig, bridgeFilePaths } from "../../bridge/config.js";
import { DeviceStore, PairCodeStore } from "../../bridge/credentials.js";
import type { Clock } from "../../util/clock.js";
import { PiclawError } from "../../util/errors.js";

export interface BridgeCommandDeps {
  config: BridgeConfig;
  stateDir: string;
  clock: Clock;
  write: (text: string) => void;
}

/**
 * `piclaw bridge pair | devices | revoke ID|all`. `pair` prints a one-time code (stored hashed; the
 * running daemon reads it from the state directory), so it works while the daemon runs.
 */
export async function bridgeCommand(
  sub: string | undefined,
  arg: string | undefined,
  deps: BridgeCommandDeps,
): Promise<number> {
  const paths = bridgeFilePaths(deps.config, deps.stateDir);
  switch (sub) {
    case "pair": {
      const { code, expiresAtMs } = new PairCodeStore(paths.pairFile, deps.clock).create(
        deps.config.pairCodeTtlSeconds,
      );
      const minutes = Math.round((expiresAtMs - deps.clock.now()) / 60_000);
      const where = deps.config.enabled
        ? `http://<this machine's address>:${deps.config.port}/`
        : "(the bridge is off: set bridge.enabled: true and restart piclaw)";
      deps.write(
        `Pair code (valid ${minutes} min, works once; a new code replaces this one):\n\n` +
          `  ${code}\n\n` +
          `On the phone open ${where} and type it in.\n`,
      );
      return 0;
    }
    case "devices": {
      const devices = new DeviceStore(paths.deviceFile, deps.clock).list();
      if (devices.length === 0) {
        deps.write("no paired phones (pair one with: piclaw bridge pair)\n");
        return 0;
      }
      deps.write(`${"ID".padEnd(8)}  PAIRED\n`);
      for (const d of devices) deps.write(`${d.id}  ${d.createdAt}\n`);
      return 0;
    }
    case "revoke": {
      if (!arg) throw new PiclawError("USAGE", "usage: piclaw bridge revoke ID|all");
      const gone = await new DeviceStore(paths.deviceFile, deps.clock).revoke(arg);
      deps.write(`unpaired ${gone.map((d) => d.id).join(", ")}\n`);
      return 0;
    }
    default:
      throw new PiclawError("USAGE", `unknown bridge command: ${sub ?? "(none)"} (pair, devices, revoke)`);
  }
}
