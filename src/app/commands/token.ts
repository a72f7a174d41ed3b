import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { TokenStore } from "../../mcp/tokens.js";
import type { Clock } from "../../util/clock.js";
import { PiclawError } from "../../util/errors.js";

export interface TokenCommandDeps {
  /** Absolute path of the token file (`tokenFilePath(config.mcp, stateDir)`). */
  tokenFile: string;
  clock: Clock;
  write: (text: string) => void;
}

/**
 * Files the SD image's first boot writes beside the token file (mode 0600, owned by the service
 * user): the plaintext of the first token, and `CODE\nEXPIRES_ISO` of the first bridge pair code.
 */
export function firstBootFiles(tokenFile: string): { token: string; pairCode: string } {
  const dir = dirname(tokenFile);
  return { token: join(dir, "first-boot-token"), pairCode: join(dir, "first-boot-pair-code") };
}

/**
 * `piclaw token create [--label NAME] | list | revoke ID|LABEL | show`. `show` prints what the SD
 * image's first boot generated (see `firstBootFiles`). `create` prints the plaintext token
 * once (it is not stored); `list` shows ids, labels and dates only.
 */
export async function tokenCommand(
  sub: string | undefined,
  arg: string | undefined,
  label: string | undefined,
  deps: TokenCommandDeps,
): Promise<number> {
  const store = new TokenStore(deps.tokenFile, deps.clock);
  switch (sub) {
    case "create": {
      const { info, token } = await store.create(label ?? arg);
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
      const info = await store.revoke(arg);
      deps.write(`token ${info.id} (${info.label}) revoked\n`);
      return 0;
    }
    case "show":
      deps.write(showFirstBoot(store, deps));
      return 0;
    default:
      throw new PiclawError(
        "USAGE",
        `unknown token command: ${sub ?? "(none)"} (create, list, revoke, show)`,
      );
  }
}

function showFirstBoot(store: TokenStore, deps: TokenCommandDeps): string {
  const files = firstBootFiles(deps.tokenFile);
  if (!existsSync(files.token)) {
    return "no first-boot token here (only the SD image makes one); create one with: piclaw token create\n";
  }
  const token = readFileSync(files.token, "utf8").trim();
  const live = store.verify(token);
  let text = live
    ? `MCP token ${live.id} (${live.label}), made at first boot:\n\n  ${token}\n\n` +
      "MCP hosts send it as the header  Authorization: Bearer <token>\n"
    : "the first-boot MCP token was revoked; create a new one with: piclaw token create\n";
  if (existsSync(files.pairCode)) {
    const [code = "", expires = ""] = readFileSync(files.pairCode, "utf8").trim().split("\n");
    const fresh = Date.parse(expires) > deps.clock.now();
    text += fresh
      ? `bridge pair code (works once, until ${expires}):  ${code}\n`
      : `the first-boot bridge pair code expired at ${expires}; make a new one with: piclaw bridge pair\n`;
  }
  return text;
}
