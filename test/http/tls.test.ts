import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { cameOverTls, secureAttribute } from "../../src/http/tls.js";

function request(headers: Record<string, string | string[]>, encrypted = false): IncomingMessage {
  return { headers, socket: encrypted ? { encrypted: true } : {} } as unknown as IncomingMessage;
}

describe("cameOverTls", () => {
  it("is true on a TLS socket, trusted proxy or not", () => {
    expect(cameOverTls(request({}, true), false)).toBe(true);
    expect(secureAttribute(request({}, true), false)).toBe("; Secure");
  });

  it("believes X-Forwarded-Proto only from a trusted proxy", () => {
    const proxied = request({ "x-forwarded-proto": "https" });
    expect(cameOverTls(proxied, false)).toBe(false);
    expect(secureAttribute(proxied, false)).toBe("");
    expect(cameOverTls(proxied, true)).toBe(true);
    // The first value of a list is the client's own proto; case does not matter.
    expect(cameOverTls(request({ "x-forwarded-proto": "HTTPS, http" }), true)).toBe(true);
    expect(cameOverTls(request({ "x-forwarded-proto": "http, https" }), true)).toBe(false);
    expect(cameOverTls(request({}), true)).toBe(false);
  });
});
