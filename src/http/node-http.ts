import type { IncomingMessage, ServerResponse } from "node:http";
import { PiclawError } from "../util/errors.js";

/**
 * node:http ⇄ web-standard Request/Response, for mounting the SDK's fetch-shaped MCP handler on our
 * own HttpService (the SDK's `@modelcontextprotocol/node` adapter is not a dependency). Responses are
 * streamed chunk by chunk so SSE (progress notifications) reaches the client as it is produced.
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

/** One cookie's value from a Cookie header (null when absent; an empty value stays ""). */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

function tooLarge(limit: number): PiclawError {
  return new PiclawError("BODY_TOO_LARGE", `request body over the ${limit}-byte limit`, { limit });
}

export function toWebRequest(req: IncomingMessage, body: Buffer, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
    method,
    headers,
    ...(hasBody ? { body: new Uint8Array(body) } : {}),
    signal,
  });
}

/** Write a web Response to a node response, streaming the body; stops when the client goes away. */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  const onClose = () => {
    reader.cancel().catch(() => {});
  };
  res.once("close", onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) break;
      res.write(value);
    }
  } catch {
    // The stream was cancelled because the client left; nothing more to send.
  } finally {
    res.off("close", onClose);
    res.end();
  }
}

/** A JSON-RPC error body without an id (the request was refused before it was read). */
export function sendRefusal(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null });
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers });
  res.end(body);
}
