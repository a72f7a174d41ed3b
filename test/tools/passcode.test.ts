import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/app/config/load.js";
import { PASSCODE_ENV, resolvePasscode } from "../../src/tools/passcode.js";
import { rejection } from "../helpers/errors.js";

const files = (map: Record<string, string>) => (path: string) => {
  const text = map[path];
  if (text === undefined) throw Object.assign(new Error("ENOENT"), { code: "ENOENT" });
  return text;
};

describe("resolvePasscode", () => {
  const sim = parseConfig({ sim: { phone: { passcode: "1111" } } });

  it("env wins over the file, the file over the inline key, the inline key over the sim's passcode", () => {
    const config = parseConfig({
      phone: { passcode: "2222", passcodeFile: "secret.txt" },
      sim: { phone: { passcode: "1111" } },
    });
    const readFile = files({ "/etc/piclaw/secret.txt": "3333\n" });
    const base = { baseDir: "/etc/piclaw", readFile };
    expect(resolvePasscode(config, { ...base, env: { [PASSCODE_ENV]: "4444" } })).toEqual({
      value: "4444",
      source: PASSCODE_ENV,
    });
    expect(resolvePasscode(config, { ...base, env: {} })).toEqual({
      value: "3333",
      source: "phone.passcodeFile",
    });
    const inline = parseConfig({ phone: { passcode: "2222" } });
    expect(resolvePasscode(inline, { ...base, env: {} })).toEqual({
      value: "2222",
      source: "phone.passcode",
    });
    expect(resolvePasscode(sim, { ...base, env: {} })).toEqual({
      value: "1111",
      source: "sim.phone.passcode",
    });
  });

  it("errors name the source and never the value", async () => {
    const bad = () => resolvePasscode(sim, { baseDir: "/", env: { [PASSCODE_ENV]: "12ab56" } });
    const err = await rejection(Promise.resolve().then(bad));
    expect(err).toMatchObject({ code: "PASSCODE_INVALID" });
    expect(err.message).toContain(PASSCODE_ENV);
    expect(err.message).not.toContain("12ab56");
    const missing = parseConfig({ phone: { passcodeFile: "nope.txt" } });
    const err2 = await rejection(
      Promise.resolve().then(() => resolvePasscode(missing, { baseDir: "/x", env: {}, readFile: files({}) })),
    );
    expect(err2).toMatchObject({ code: "PASSCODE_UNREADABLE" });
    expect(err2.message).toContain("/x/nope.txt");
  });

  it("the config refuses an inline passcode that is not 4–6 digits", () => {
    expect(() => parseConfig({ phone: { passcode: "12" } })).toThrow(/phone\.passcode/);
  });
});
