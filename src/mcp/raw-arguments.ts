/**
 * Tool arguments exactly as the client sent them, keyed by JSON-RPC id. The SDK validates
 * `tools/call` params with a record schema that rebuilds the arguments object, and rebuilding
 * silently drops an own `"__proto__"` key (JSON.parse makes it an own property; assigning it to a
 * new object sets the prototype instead). Our strict argument schemas would refuse that key, but
 * never saw it: 28 such calls moved the arm (issue 19). With the raw arguments the tool checks what
 * was really sent, and "unknown keys are errors" holds for `__proto__` and `constructor` too.
 */
export type RawToolArguments = ReadonlyMap<string, unknown>;

/** What one parse of a JSON-RPC body tells the endpoint about its tool calls. */
export interface ToolCallsInBody {
  /** The raw `arguments` of each `tools/call`, by id. */
  arguments: RawToolArguments;
  /**
   * How many `tools/call` messages the body holds (with or without an id or arguments): the rate
   * limit counts tool calls, so a batch of 100 costs 100, not one request (issue 19).
   */
  calls: number;
}

/** The `tools/call` messages of a JSON-RPC body (one message or a batch); null if not JSON. */
export function rawToolArguments(body: Buffer): ToolCallsInBody | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    return null; // the SDK answers the parse error
  }
  const out = new Map<string, unknown>();
  let calls = 0;
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    if (!message || typeof message !== "object") continue;
    const { id, method, params } = message as { id?: unknown; method?: unknown; params?: unknown };
    if (method === "tools/call") calls++;
    if (method !== "tools/call" || (typeof id !== "string" && typeof id !== "number")) continue;
    if (params && typeof params === "object" && Object.hasOwn(params, "arguments"))
      out.set(rawIdKey(id), (params as { arguments: unknown }).arguments);
  }
  return { arguments: out, calls };
}

/** The map key of a JSON-RPC id (`1` and `"1"` are different ids). */
export function rawIdKey(id: string | number): string {
  return JSON.stringify(id);
}
