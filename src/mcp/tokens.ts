import { z } from "zod";
import type { Clock } from "../util/clock.js";
import { PiclawError } from "../util/errors.js";
import { HashedSecretFile, hashedSecretFields } from "../util/hashed-secret-file.js";

/**
 * Bearer tokens for the MCP endpoint, stored in one JSON file (mode 0600, replaced atomically by a
 * rename). Only a salted SHA-256 of each secret is stored: tokens carry 256 random bits, so a fast hash
 * is enough (there is nothing to brute-force) and verifying stays cheap on every request. The plaintext
 * exists once, in the return value of `create()`.
 *
 * Token format: `piclaw_<id>_<secret>`; the id (8 hex digits) is public and names the token in
 * `list`/`revoke` and logs. The daemon re-reads the file when it changes, so `piclaw token revoke`
 * takes effect on the next request without a restart.
 */

const LABEL_RE = /^[A-Za-z0-9][A-Za-z0-9 ._@-]{0,39}$/;

// id, then label, then the rest: the field order this file has always had (and reports issues in).
const { id: idField, ...otherFields } = hashedSecretFields;
const recordSchema = z.strictObject({ id: idField, label: z.string(), ...otherFields });
type TokenRecord = z.output<typeof recordSchema>;

/** What may be shown about a token (never the secret or its hash). */
export interface TokenInfo {
  id: string;
  label: string;
  createdAt: string;
}

export class TokenStore {
  private readonly file: HashedSecretFile<TokenRecord>;

  constructor(
    readonly path: string,
    private readonly clock: Clock,
  ) {
    this.file = new HashedSecretFile({
      path,
      recordSchema,
      key: "tokens",
      secretPrefix: "piclaw_",
      errorPrefix: "TOKEN",
      description: "token file",
    });
  }

  /** Create a token; the returned plaintext is the only copy. One locked update of the file. */
  async create(label?: string): Promise<{ info: TokenInfo; token: string }> {
    return this.file.update((records) => {
      const { fields, plaintext } = this.file.mint(records, new Date(this.clock.now()).toISOString());
      const name = label ?? `token-${fields.id}`;
      if (!LABEL_RE.test(name)) {
        throw new PiclawError(
          "TOKEN_LABEL_INVALID",
          "label must be 1–40 characters: letters, digits, space, . _ @ - (starting with a letter or digit)",
          { field: "label" },
        );
      }
      if (records.some((r) => r.label === name)) {
        throw new PiclawError(
          "TOKEN_LABEL_TAKEN",
          `a token labelled "${name}" exists; revoke it or pick another label`,
        );
      }
      // Spelled out so the file keeps its key order (id, label, createdAt, salt, sha256).
      const { id, ...hashed } = fields;
      const record: TokenRecord = { id, label: name, ...hashed };
      return { records: [...records, record], result: { info: publicInfo(record), token: plaintext } };
    });
  }

  list(): TokenInfo[] {
    return this.file.read().map(publicInfo);
  }

  /** Revoke by id or label (one locked update); throws TOKEN_NOT_FOUND. */
  async revoke(idOrLabel: string): Promise<TokenInfo> {
    return this.file.update((records) => {
      const found = records.find((r) => r.id === idOrLabel || r.label === idOrLabel);
      if (!found) throw new PiclawError("TOKEN_NOT_FOUND", `no token with id or label "${idOrLabel}"`);
      return { records: records.filter((r) => r !== found), result: publicInfo(found) };
    });
  }

  /** The token's public info when `presented` is a live token, else null. Constant-time compare. */
  verify(presented: string): TokenInfo | null {
    const record = this.file.verify(presented);
    return record ? publicInfo(record) : null;
  }

  /** Whether any token exists (a remote bind without tokens can only refuse everything). */
  isEmpty(): boolean {
    return this.file.read().length === 0;
  }
}

function publicInfo(r: TokenRecord): TokenInfo {
  return { id: r.id, label: r.label, createdAt: r.createdAt };
}
