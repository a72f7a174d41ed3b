import type { IncomingMessage } from "node:http";
import { PiclawError } from "../util/errors.js";

/**
 * The one request-body reader (MCP, the bridge, the dashboard's login form, the agent API). Parsing
 * stays with each caller: their bodies (JSON-RPC, zod-checked JSON, a form) and error contracts differ.
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

function tooLarge(limit: number): PiclawError {
  return new PiclawError("BODY_TOO_LARGE", `request body over the ${limit}-byte limit`, { limit });
}
