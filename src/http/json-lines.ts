/**
 * The objects of a newline-delimited JSON stream (the daemon's streaming API replies), one per line,
 * as they arrive. A line that is not JSON throws (SyntaxError): the daemon writes only JSON lines.
 */
export async function* jsonLines(body: AsyncIterable<Uint8Array>): AsyncGenerator<Record<string, unknown>> {
  let buffered = "";
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true });
    for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      yield JSON.parse(line) as Record<string, unknown>;
    }
  }
}
