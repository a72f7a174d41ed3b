import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { z } from "zod";
import { writeJsonAtomic } from "./atomic-file.js";
import { errorMessage, PiclawError } from "./errors.js";
import { lockedUpdate } from "./locked-update.js";

/**
 * A JSON file of long random secrets stored only as salted SHA-256 hashes (MCP tokens, bridge device
 * credentials): `{ "version": 1, "<key>": [record, …] }`, mode 0600, replaced atomically. The secrets
 * carry 256 random bits, so a fast hash is enough (there is nothing to brute-force) and verifying stays
 * cheap on every request. The plaintext `<prefix><id>_<secret>` exists once, in `mint()`'s return value.
 *
 * Every read looks at the file's bytes (a few KB) and parses them only when they changed, so a
 * change written by another process (a CLI revoking a secret while the daemon runs) is seen on the
 * next read. Not a stat key: an atomic replace can reuse the old inode number with the same size
 * within one coarse mtime tick, and a revoked secret would then still verify.
 * Changes go through `update()`, one locked read-modify-write (`<path>.lock`), so concurrent
 * writers in several processes never lose each other's change (issue 19: 154 tokens printed as
 * created, 91 stored; revoked tokens came back).
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
  private cache: { text: string; records: R[] } | null = null;
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
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw new PiclawError(`${errorPrefix}_FILE_UNREADABLE`, `cannot read ${path}: ${errorMessage(err)}`);
    }
    if (this.cache?.text === text) return this.cache.records;
    let records: R[];
    try {
      records = this.fileSchema.parse(JSON.parse(text));
    } catch (err) {
      throw new PiclawError(
        `${errorPrefix}_FILE_INVALID`,
        `${path} is not a valid ${description}: ${errorMessage(err)}`,
      );
    }
    this.cache = { text, records };
    return records;
  }

  /**
   * Replace the file's records (atomically, mode 0600) without the lock: for a writer that owns
   * the file alone (tests, first boot). Anything that reads first must use `update()`.
   */
  write(records: readonly R[]): void {
    writeJsonAtomic(this.options.path, { version: 1, [this.options.key]: records });
    this.cache = null;
  }

  /**
   * One locked read-modify-write: `change` gets the records as they are now on disk and returns
   * the new list (null: leave the file as it is) and a result, which `update` resolves to. A throw
   * from `change` leaves the file untouched. Rejects with STATE_LOCK_TIMEOUT after 10 s of waiting.
   */
  async update<T>(
    change: (records: readonly R[]) => { records: readonly R[] | null; result: T },
  ): Promise<T> {
    return lockedUpdate(this.options.path, () => {
      const { records, result } = change(this.read());
      if (records !== null) this.write(records);
      return result;
    });
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
