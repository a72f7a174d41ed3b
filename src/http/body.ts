import type { IncomingMessage } from "node:http";
import type { z } from "zod";
import { PiclawError } from "../util/errors.js";

/**
 * The one request-body reader (MCP, the bridge, the dashboard's login form, the agent and calibration
 * APIs), and one reader of zod-checked JSON bodies for the APIs. JSON-RPC and forms parse their own.
 */

/** Read the whole body, refusing (BODY_TOO_LARGE) as soon as it passes `limit` bytes. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      req.resume(); // drain the rest so the 413 can be written on a keep-alive socket
      throw tooLarge(limit);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Read a JSON body and check it with `schema`. A body that is not JSON, or not what the schema wants,
 * is a BAD_REQUEST naming the problem (`example` shows the expected shape). With `emptyAs`, an empty
 * body stands for that value.
 */
export async function readJsonBody<S extends z.ZodType>(
  req: IncomingMessage,
  limit: number,
  schema: S,
  example: string,
  options: { emptyAs?: unknown } = {},
): Promise<z.infer<S>> {
  const raw = (await readBody(req, limit)).toString("utf8");
  let value: unknown = options.emptyAs;
  if (options.emptyAs === undefined || raw.trim() !== "") {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new PiclawError("BAD_REQUEST", `body: must be JSON like ${example}`);
    }
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new PiclawError("BAD_REQUEST", parsed.error.issues.map((i) => i.message).join("; "));
  return parsed.data;
}

function tooLarge(limit: number): PiclawError {
  return new PiclawError("BODY_TOO_LARGE", `request body over the ${limit}-byte limit`, { limit });
}
