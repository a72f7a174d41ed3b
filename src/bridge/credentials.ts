import { randomBytes, randomInt, scryptSync, timingSafeEqual } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { z } from "zod";
import { writeJsonAtomic } from "../util/atomic-file.js";
import type { Clock } from "../util/clock.js";
import { errorMessage, PiclawError } from "../util/errors.js";
import { HashedSecretFile, hashedSecretFields } from "../util/hashed-secret-file.js";

/**
 * The bridge's two secrets, both stored only as hashes in the state directory (files mode 0600,
 * replaced atomically by a rename, so the daemon never reads a half-written file while
 * `piclaw bridge pair` runs in another process):
 * - the pair code: short (8 characters from 31 unambiguous ones, ≈40 bits), shown once by
 *   `piclaw bridge pair`, valid for minutes and for one successful use. Being short, it is stored as a
 *   salted scrypt hash (slow to brute-force if the file leaks); online guessing is rate-limited.
 * - device credentials: 256 random bits each, minted when a code is accepted and kept by the phone in
 *   an HttpOnly cookie. A salted SHA-256 is enough for those (nothing to brute-force) and keeps the
 *   check on every request cheap.
 */

/** Unambiguous on a phone keyboard and on paper: no 0/O, 1/I/L. */
const CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
export const PAIR_CODE_LENGTH = 8;
const SCRYPT = { N: 1 << 14, r: 8, p: 1 } as const;
/** Paired phones kept; pairing one more forgets the oldest. */
export const MAX_DEVICES = 16;

const pairFileSchema = z.strictObject({
  version: z.literal(1),
  salt: z.string(),
  scrypt: z.string(),
  createdAtMs: z.number(),
  expiresAtMs: z.number(),
});

const deviceSchema = z.strictObject(hashedSecretFields);
type DeviceRecord = z.output<typeof deviceSchema>;

/** What may be shown about a paired phone (never the credential or its hash). */
export interface DeviceInfo {
  id: string;
  createdAt: string;
}

/** A fresh pair code; `code` is the only plaintext copy. */
export interface PairCode {
  /** Shown as `ABCD-EFGH`; typing is case- and dash-insensitive. */
  code: string;
  expiresAtMs: number;
}

export type PairCheck = "ok" | "wrong" | "expired" | "none";

/** The pending pair code (at most one: a new code replaces the old). */
export class PairCodeStore {
  constructor(
    readonly path: string,
    private readonly clock: Clock,
  ) {}

  create(ttlSeconds: number): PairCode {
    let raw = "";
    for (let i = 0; i < PAIR_CODE_LENGTH; i++) raw += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
    const salt = randomBytes(16).toString("hex");
    const now = this.clock.now();
    const expiresAtMs = now + ttlSeconds * 1000;
    writeJsonAtomic(this.path, {
      version: 1,
      salt,
      scrypt: scryptHex(raw, salt),
      createdAtMs: now,
      expiresAtMs,
    });
    return { code: `${raw.slice(0, 4)}-${raw.slice(4)}`, expiresAtMs };
  }

  /** Check a typed code; a match (or an expired code) deletes the file, so a code works once. */
  check(typed: string): PairCheck {
    const record = this.read();
    if (!record) return "none";
    if (this.clock.now() >= record.expiresAtMs) {
      rmSync(this.path, { force: true });
      return "expired";
    }
    const normalized = normalizeCode(typed);
    if (normalized.length !== PAIR_CODE_LENGTH) return "wrong";
    const expected = Buffer.from(record.scrypt, "hex");
    const actual = Buffer.from(scryptHex(normalized, record.salt), "hex");
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return "wrong";
    rmSync(this.path, { force: true });
    return "ok";
  }

  /** When the pending code expires, or null when there is none (or it has expired). */
  pendingUntil(): number | null {
    const record = this.read();
    return record && record.expiresAtMs > this.clock.now() ? record.expiresAtMs : null;
  }

  private read(): z.output<typeof pairFileSchema> | null {
    const text = readOptional(this.path);
    if (text === null) return null;
    try {
      return pairFileSchema.parse(JSON.parse(text));
    } catch (err) {
      throw new PiclawError(
        "BRIDGE_FILE_INVALID",
        `${this.path} is not a valid pair-code file (run piclaw bridge pair again): ${errorMessage(err)}`,
      );
    }
  }
}

/** Upper-case, without spaces or dashes, so `abcd efgh` and `ABCD-EFGH` are the same code. */
export function normalizeCode(typed: string): string {
  return typed.replace(/[\s-]/g, "").toUpperCase();
}

/** Paired phones' credentials. Re-read when the file changes, so `piclaw bridge revoke` acts at once. */
export class DeviceStore {
  private readonly file: HashedSecretFile<DeviceRecord>;

  constructor(
    readonly path: string,
    private readonly clock: Clock,
  ) {
    this.file = new HashedSecretFile({
      path,
      recordSchema: deviceSchema,
      key: "devices",
      secretPrefix: "pcb_",
      errorPrefix: "BRIDGE",
      description: "bridge device file",
    });
  }

  /** Mint a credential for a newly paired phone (one locked update); the plaintext is the only copy. */
  async add(): Promise<{ info: DeviceInfo; credential: string }> {
    return this.file.update((records) => {
      const { fields: record, plaintext } = this.file.mint(records, new Date(this.clock.now()).toISOString());
      return {
        records: [...records, record].slice(-MAX_DEVICES),
        result: { info: publicInfo(record), credential: plaintext },
      };
    });
  }

  list(): DeviceInfo[] {
    return this.file.read().map(publicInfo);
  }

  /** Forget one phone by id, or every phone with `all` (one locked update); returns what was removed. */
  async revoke(idOrAll: string): Promise<DeviceInfo[]> {
    return this.file.update((records) => {
      const gone = idOrAll === "all" ? records : records.filter((r) => r.id === idOrAll);
      if (gone.length === 0) throw new PiclawError("BRIDGE_DEVICE_NOT_FOUND", `no paired phone "${idOrAll}"`);
      return { records: records.filter((r) => !gone.includes(r)), result: gone.map(publicInfo) };
    });
  }

  /** The phone's info when `presented` is a live credential, else null. Constant-time compare. */
  verify(presented: string): DeviceInfo | null {
    const record = this.file.verify(presented);
    return record ? publicInfo(record) : null;
  }
}

function publicInfo(r: DeviceRecord): DeviceInfo {
  return { id: r.id, createdAt: r.createdAt };
}

function scryptHex(code: string, salt: string): string {
  return scryptSync(code, salt, 32, SCRYPT).toString("hex");
}

function readOptional(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new PiclawError("BRIDGE_FILE_UNREADABLE", `cannot read ${path}: ${errorMessage(err)}`);
  }
}
