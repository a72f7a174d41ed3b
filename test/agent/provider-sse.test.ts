import { describe, expect, it } from "vitest";
import { SseDecoder } from "../../src/agent/provider-sse.js";

/** The SSE decoder against the WHATWG rules that providers' streams exercise. */

const decoder = (max = 1000) => new SseDecoder(max, (chars) => new Error(`too long: ${chars}`));

describe("SseDecoder", () => {
  it("splits events on blank lines whatever the line ends (LF, CRLF, CR), also split across reads", () => {
    const text = "data: a\n\ndata: b\r\n\r\ndata: c\r\rdata: d\n\n";
    const whole = decoder()
      .push(text)
      .map((e) => e.data);
    expect(whole).toEqual(["a", "b", "c", "d"]);
    for (let size = 1; size <= 7; size++) {
      const d = decoder();
      const got: string[] = [];
      for (let i = 0; i < text.length; i += size)
        got.push(...d.push(text.slice(i, i + size)).map((e) => e.data));
      expect(got, `pieces of ${size}`).toEqual(whole);
    }
  });

  it("joins data lines with LF, drops one space after the colon, skips comments and other fields", () => {
    const events = decoder().push(
      ": keep-alive\n\nid: 7\nretry: 10\ndata:x\ndata:  y\n\nevent: error\ndata: {}\n\n",
    );
    expect(events).toEqual([
      { event: null, data: "x\n y" },
      { event: "error", data: "{}" },
    ]);
  });

  it("dispatches a last event without its blank line at the end of the body", () => {
    const d = decoder();
    expect(d.push("data: [DONE]")).toEqual([]);
    expect(d.end()).toEqual([{ event: null, data: "[DONE]" }]);
  });

  it("an event or an unterminated line over the bound throws instead of growing", () => {
    expect(() => decoder(10).push("data: 0123456789")).toThrow(/too long: 16/);
    const d = decoder(10);
    d.push("data: 01234\n");
    expect(() => d.push("data: 56789\n")).toThrow(/too long/);
  });
});
