import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * node:http ⇄ web-standard Request/Response, for mounting the SDK's fetch-shaped MCP handler on our
 * own HttpService (the SDK's `@modelcontextprotocol/node` adapter is not a dependency). Responses are
 * streamed chunk by chunk so SSE (progress notifications) reaches the client as it is produced.
 */

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
