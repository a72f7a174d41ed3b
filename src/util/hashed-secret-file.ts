import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { z } from "zod";
import { writeJsonAtomic } from "./atomic-file.js";
import { errorMessage, PiclawError } from "./errors.js";

/**
 * A JSON file of long random secrets stored only as salted SHA-256 hashes (MCP tokens, bridge device
 * credentials): `{ "version": 1, "<key>": [record, …] }`, mode 0600, replaced atomically. The secrets
 * carry 256 random bits, so a fast hash is enough (there is nothing to brute-force) and verifying stays
 * cheap on every request. The plaintext `<prefix><id>_<secret>` exists once, in `mint()`'s return value.
 *
 * Reads are cached by the file's inode, size and mtime, so a change written by another process (a
 * CLI revoking a secret while the daemon runs) is seen on the next read without a restart.
 */

/** The fields every record has; a store's schema may add more (e.g. a label). */
export const hashedSecretFields = {
  /** 8 hex digits, public: names the secret in lists, revocations and logs. */
  id: z.string().regex(/^[0-9a-f]{8}$/),
  createdAt: z.string(),
  salt: z.string(),
  sha256: z.string(),
};

export interface HashedSecretRecord {
  id: string;
  createdAt: string;
  salt: string;
  sha256: string;
}

export interface HashedSecretFileOptions<R extends HashedSecretRecord> {
  path: string;
  /** Schema of one record (strict, built from `hashedSecretFields`). */
  recordSchema: z.ZodType<R>;
  /** The file's top-level array key, e.g. `tokens`. */
  key: string;
  /** Start of the plaintext secret, e.g. `piclaw_`. */
  secretPrefix: string;
  /** Error codes are `<prefix>_FILE_UNREADABLE` and `<prefix>_FILE_INVALID`, e.g. `TOKEN`. */
  errorPrefix: string;
  /** Names the file in the FILE_INVALID message, e.g. `token file`. */
  description: string;
}

/** A freshly minted secret: the hashed fields to store and the plaintext to hand out once. */
export interface MintedSecret {
  fields: HashedSecretRecord;
  /** `<prefix><id>_<secret>`: the only plaintext copy. */
  plaintext: string;
}

export class HashedSecretFile<R extends HashedSecretRecord> {
  private cache: { key: string; records: R[] } | null = null;
  private readonly fileSchema: z.ZodType<R[]>;
  private readonly secretRe: RegExp;

  constructor(private readonly options: HashedSecretFileOptions<R>) {
    const { key, recordSchema, secretPrefix } = options;
    // The computed key widens the shape's type; the value under `key` is the records array.
    this.fileSchema = z
      .strictObject({ version: z.literal(1), [key]: z.array(recordSchema) })
      .transform((doc) => doc[key] as R[]);
    const prefix = secretPrefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    this.secretRe = new RegExp(`^${prefix}([0-9a-f]{8})_([A-Za-z0-9_-]{43})$`);
  }

  get path(): string {
    return this.options.path;
  }

  /** The stored records ([] when the file does not exist). Throws `<prefix>_FILE_UNREADABLE/INVALID`. */
  read(): R[] {
    const { path, errorPrefix, description } = this.options;
    let key: string;
    try {
      const st = statSync(path);
      key = `${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw new PiclawError(`${errorPrefix}_FILE_UNREADABLE`, `cannot read ${path}: ${errorMessage(err)}`);
    }
    if (this.cache?.key === key) return this.cache.records;
    let records: R[];
    try {
      records = this.fileSchema.parse(JSON.parse(readFileSync(path, "utf8")));
    } catch (err) {
      throw new PiclawError(
        `${errorPrefix}_FILE_INVALID`,
        `${path} is not a valid ${description}: ${errorMessage(err)}`,
      );
    }
    this.cache = { key, records };
    return records;
  }

  /** Replace the file's records (atomically, mode 0600). */
  write(records: readonly R[]): void {
    writeJsonAtomic(this.options.path, { version: 1, [this.options.key]: records });
    this.cache = null;
  }

  /** A new secret whose id is not among `existing`; nothing is written. */
  mint(existing: readonly R[], createdAt: string): MintedSecret {
    let id = randomBytes(4).toString("hex");
    while (existing.some((r) => r.id === id)) id = randomBytes(4).toString("hex");
    const secret = randomBytes(32).toString("base64url");
    const salt = randomBytes(16).toString("hex");
    return {
      fields: { id, createdAt, salt, sha256: sha256Hex(salt, secret) },
      plaintext: `${this.options.secretPrefix}${id}_${secret}`,
    };
  }

  /** The record `presented` is the live secret of, else null. Constant-time hash compare. */
  verify(presented: string): R | null {
    const match = this.secretRe.exec(presented);
    if (!match) return null;
    const [, id, secret] = match;
    const record = this.read().find((r) => r.id === id);
    if (!record || secret === undefined) return null;
    const expected = Buffer.from(record.sha256, "hex");
    const actual = Buffer.from(sha256Hex(record.salt, secret), "hex");
    return expected.length === actual.length && timingSafeEqual(expected, actual) ? record : null;
  }
}

function sha256Hex(salt: string, secret: string): string {
  return createHash("sha256").update(salt).update(":").update(secret).digest("hex");
}
