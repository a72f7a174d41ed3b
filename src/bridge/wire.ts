import { z } from "zod";
import { PiclawError } from "../util/errors.js";

/**
 * The bridge's wire format: zod schemas for every request body and query the page (or a Shortcut)
 * sends, checked at the edge before anything reaches the state. Errors name the field.
 */

const finite = z.number().finite();
const fraction = finite.min(0).max(1);
const size = finite.min(1).max(100_000);

export const pairRequestSchema = z.strictObject({
  code: z.string().min(1).max(32),
  /** `cookie` (the page) sets the HttpOnly cookie; `token` (curl, an iOS Shortcut) returns it as JSON. */
  deliver: z.enum(["cookie", "token"]).default("cookie"),
});

export const helloRequestSchema = z.strictObject({
  screen: z.strictObject({ width: size, height: size }),
  viewport: z.strictObject({ width: size, height: size }),
  devicePixelRatio: finite.min(0.1).max(10),
  fullScreen: z.boolean(),
  standalone: z.boolean(),
  secureContext: z.boolean(),
  userAgent: z.string().max(400).default(""),
});
export type PageInfo = z.output<typeof helloRequestSchema>;

export const ackRequestSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("clipboard"),
    id: z.number().int().min(1),
    state: z.enum(["shown", "copied"]),
    how: z.enum(["auto", "tap"]).optional(),
  }),
  z.strictObject({ kind: z.literal("display"), id: z.number().int().min(0) }),
]);

/** Touch-downs in 0–1 screen fractions; times are on the page's own clock (`performance.now()`). */
export const touchesRequestSchema = z.strictObject({
  sentAtMs: finite.min(0),
  fullScreen: z.boolean(),
  touches: z
    .array(z.strictObject({ x: fraction, y: fraction, tMs: finite.min(0) }))
    .min(1)
    .max(64),
});

export const pollQuerySchema = z.strictObject({
  since: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  wait: z.coerce.number().int().min(0).max(600_000).optional(),
});

/** Parse JSON `body` with `schema`; a failure is BRIDGE_BAD_REQUEST naming the first bad field. */
export function parseJsonBody<S extends z.ZodType>(schema: S, body: Buffer): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(body.toString("utf8"));
  } catch {
    throw new PiclawError("BRIDGE_BAD_REQUEST", "the request body is not valid JSON");
  }
  return parseWith(schema, value);
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join(".") : "(body)";
  throw new PiclawError("BRIDGE_BAD_REQUEST", `${field}: ${issue?.message ?? "invalid"}`, { field });
}

/** PNG or JPEG by the first bytes (the declared content type is not trusted). */
export function imageTypeOf(bytes: Buffer): "png" | "jpeg" | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_MAGIC)) return "png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  return null;
}

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
