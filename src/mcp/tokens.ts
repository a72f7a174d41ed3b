import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";
import type { Clock } from "../util/clock.js";
import { errorMessage, PiclawError } from "../util/errors.js";

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

const PREFIX = "piclaw_";
const TOKEN_RE = /^piclaw_([0-9a-f]{8})_([A-Za-z0-9_-]{43})$/;
const LABEL_RE = /^[A-Za-z0-9][A-Za-z0-9 ._@-]{0,39}$/;

const recordSchema = z.strictObject({
  id: z.string().regex(/^[0-9a-f]{8}$/),
  label: z.string(),
  createdAt: z.string(),
  salt: z.string(),
  sha256: z.string(),
});
const fileSchema = z.strictObject({ version: z.literal(1), tokens: z.array(recordSchema) });
type TokenRecord = z.output<typeof recordSchema>;

/** What may be shown about a token (never the secret or its hash). */
export interface TokenInfo {
  id: string;
  label: string;
  createdAt: string;
}

export class TokenStore {
  private cache: { key: string; records: TokenRecord[] } | null = null;

  constructor(
    readonly path: string,
    private readonly clock: Clock,
  ) {}

  /** Create a token; the returned plaintext is the only copy. */
  create(label?: string): { info: TokenInfo; token: string } {
    const records = this.read();
    let id = randomBytes(4).toString("hex");
    while (records.some((r) => r.id === id)) id = randomBytes(4).toString("hex");
    const name = label ?? `token-${id}`;
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
    const secret = randomBytes(32).toString("base64url");
    const salt = randomBytes(16).toString("hex");
    const record: TokenRecord = {
      id,
      label: name,
      createdAt: new Date(this.clock.now()).toISOString(),
      salt,
      sha256: digest(salt, secret),
    };
    this.write([...records, record]);
    return { info: publicInfo(record), token: `${PREFIX}${id}_${secret}` };
  }

  list(): TokenInfo[] {
    return this.read().map(publicInfo);
  }

  /** Revoke by id or label; throws TOKEN_NOT_FOUND. */
  revoke(idOrLabel: string): TokenInfo {
    const records = this.read();
    const found = records.find((r) => r.id === idOrLabel || r.label === idOrLabel);
    if (!found) throw new PiclawError("TOKEN_NOT_FOUND", `no token with id or label "${idOrLabel}"`);
    this.write(records.filter((r) => r !== found));
    return publicInfo(found);
  }

  /** The token's public info when `presented` is a live token, else null. Constant-time compare. */
  verify(presented: string): TokenInfo | null {
    const match = TOKEN_RE.exec(presented);
    if (!match) return null;
    const [, id, secret] = match;
    const record = this.read().find((r) => r.id === id);
    if (!record || secret === undefined) return null;
    const expected = Buffer.from(record.sha256, "hex");
    const actual = Buffer.from(digest(record.salt, secret), "hex");
    return expected.length === actual.length && timingSafeEqual(expected, actual) ? publicInfo(record) : null;
  }

  /** Whether any token exists (a remote bind without tokens can only refuse everything). */
  isEmpty(): boolean {
    return this.read().length === 0;
  }

  private read(): TokenRecord[] {
    let key: string;
    try {
      const st = statSync(this.path);
      key = `${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw new PiclawError("TOKEN_FILE_UNREADABLE", `cannot read ${this.path}: ${errorMessage(err)}`);
    }
    if (this.cache?.key === key) return this.cache.records;
    let records: TokenRecord[];
    try {
      records = fileSchema.parse(JSON.parse(readFileSync(this.path, "utf8"))).tokens;
    } catch (err) {
      throw new PiclawError(
        "TOKEN_FILE_INVALID",
        `${this.path} is not a valid token file: ${errorMessage(err)}`,
      );
    }
    this.cache = { key, records };
    return records;
  }

  private write(records: TokenRecord[]): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const tmp = `${this.path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ version: 1, tokens: records }, null, 2)}\n`, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.path);
    this.cache = null;
  }
}

function digest(salt: string, secret: string): string {
  return createHash("sha256").update(salt).update(":").update(secret).digest("hex");
}

function publicInfo(r: TokenRecord): TokenInfo {
  return { id: r.id, label: r.label, createdAt: r.createdAt };
}

/** The bearer value of an Authorization header, or null when absent/not Bearer. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1] ?? null;
}
