import type { Clock } from "../util/clock.js";
import { PiclawError } from "../util/errors.js";
import { TokenStore } from "./tokens.js";

export interface TokenCommandDeps {
  /** Absolute path of the token file (`tokenFilePath(config.mcp, stateDir)`). */
  tokenFile: string;
  clock: Clock;
  write: (text: string) => void;
}

/**
 * `piclaw token create [--label NAME] | list | revoke ID|LABEL`. `create` prints the plaintext token
 * once (it is not stored); `list` shows ids, labels and dates only.
 */
export function tokenCommand(
  sub: string | undefined,
  arg: string | undefined,
  label: string | undefined,
  deps: TokenCommandDeps,
): number {
  const store = new TokenStore(deps.tokenFile, deps.clock);
  switch (sub) {
    case "create": {
      const { info, token } = store.create(label ?? arg);
      deps.write(
        `token ${info.id} (${info.label}) created. This is the only time it is shown; store it now:\n\n` +
          `  ${token}\n\n` +
          `MCP hosts send it as the header  Authorization: Bearer <token>\n`,
      );
      return 0;
    }
    case "list": {
      const tokens = store.list();
      if (tokens.length === 0) {
        deps.write("no tokens (create one with: piclaw token create --label NAME)\n");
        return 0;
      }
      const width = Math.max(5, ...tokens.map((t) => t.label.length));
      deps.write(`${"ID".padEnd(8)}  ${"LABEL".padEnd(width)}  CREATED\n`);
      for (const t of tokens) deps.write(`${t.id}  ${t.label.padEnd(width)}  ${t.createdAt}\n`);
      return 0;
    }
    case "revoke": {
      if (!arg) throw new PiclawError("USAGE", "usage: piclaw token revoke ID|LABEL");
      const info = store.revoke(arg);
      deps.write(`token ${info.id} (${info.label}) revoked\n`);
      return 0;
    }
    default:
      throw new PiclawError("USAGE", `unknown token command: ${sub ?? "(none)"} (create, list, revoke)`);
  }
}
