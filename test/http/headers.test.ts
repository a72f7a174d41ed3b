import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { bearerToken, cookieValue, originMatchesHost } from "../../src/http/headers.js";
import { HostGuard } from "../../src/http/host-guard.js";

/** Only the headers these functions read. */
function request(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

describe("http headers", () => {
  it("reads a bearer token whatever the scheme's case, and nothing else", () => {
    expect(bearerToken("Bearer abc")).toBe("abc");
    expect(bearerToken("bearer\tabc ")).toBe("abc");
    expect(bearerToken("Basic abc")).toBeNull();
    expect(bearerToken("Bearer a b")).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
  });

  it("finds one cookie, keeping an empty value", () => {
    expect(cookieValue("a=1; piclaw=xyz; b=2", "piclaw")).toBe("xyz");
    expect(cookieValue("piclaw=", "piclaw")).toBe("");
    expect(cookieValue("xpiclaw=1", "piclaw")).toBeNull();
    expect(cookieValue(undefined, "piclaw")).toBeNull();
  });

  it("accepts a missing Origin or one naming the Host, and refuses others", () => {
    expect(originMatchesHost(request({ host: "pi.local:8080" }))).toBe(true);
    expect(originMatchesHost(request({ host: "pi.local:8080", origin: "http://pi.local:8080" }))).toBe(true);
    expect(originMatchesHost(request({ host: "PI.local:8080", origin: "http://pi.local:8080" }))).toBe(true);
    expect(originMatchesHost(request({ host: "pi.local:8080", origin: "http://evil.example" }))).toBe(false);
    expect(originMatchesHost(request({ host: "pi.local:8080", origin: "http://pi.local:9090" }))).toBe(false);
    expect(originMatchesHost(request({ host: "pi.local", origin: "null" }))).toBe(false);
  });
});

describe("HostGuard", () => {
  const guard = new HostGuard({
    bindHost: "0.0.0.0",
    localNames: ["piclaw", "192.168.1.20"],
    allowedHosts: [],
    allowedOrigins: ["Studio.example"],
  });

  it("lets this machine's names through and refuses a rebound name with the 403 message", () => {
    expect(guard.refusal(request({ host: "piclaw:8080" }))).toBeNull();
    expect(
      guard.refusal(request({ host: "192.168.1.20:8080", origin: "http://192.168.1.20:8080" })),
    ).toBeNull();
    expect(guard.refusal(request({ host: "evil.example" }))).toMatch(/^Host not allowed: /);
    expect(guard.hostRefusal(request({ host: "localhost:8080" }))).toBeNull();
  });

  it("checks a browser's Origin against the same names plus allowedOrigins", () => {
    expect(guard.refusal(request({ host: "piclaw", origin: "https://studio.example" }))).toBeNull();
    expect(guard.refusal(request({ host: "piclaw", origin: "http://evil.example" }))).toBe(
      "Origin not allowed",
    );
  });
});
