import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DAEMON_MALLOC_ENV, DAEMON_NODE_FLAGS } from "../../src/app/node-flags.js";
import { projectRoot } from "../../src/util/paths.js";

const UNIT = join(projectRoot(), "systemd", "piclaw.service");
const ANALYZE = "/usr/bin/systemd-analyze";
// CI must have it (Debian package `systemd`); on a developer machine without it the check is skipped.
const haveAnalyze = existsSync(ANALYZE);

/** key → every value, per section, from a unit file (comments and blank lines dropped). */
function parseUnit(text: string): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  let section = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) {
      section = header[1] ?? "";
      continue;
    }
    const eq = line.indexOf("=");
    const key = `${section}.${line.slice(0, eq)}`;
    keys.set(key, [...(keys.get(key) ?? []), line.slice(eq + 1)]);
  }
  return keys;
}

/**
 * `systemd-analyze verify` on a copy whose ExecStart interpreter is this machine's node (the real unit
 * names /usr/bin/node, which a CI box may not have). Everything else is verified as written. Returns the
 * exit code and all output: verify exits 0 even on "ignoring" parse warnings, so output must be empty.
 */
function verify(unitText: string): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), "piclaw-unit-"));
  const copy = join(dir, "piclaw.service");
  writeFileSync(copy, unitText.replace(/^ExecStart=\/usr\/bin\/node /m, `ExecStart=${process.execPath} `));
  const r = spawnSync(ANALYZE, ["verify", "--man=no", copy], { encoding: "utf8" });
  return { status: r.status, output: `${r.stdout}${r.stderr}`.trim() };
}

describe("systemd/piclaw.service", () => {
  const text = readFileSync(UNIT, "utf8");
  const unit = parseUnit(text);
  const one = (key: string) => unit.get(key)?.join(" ");

  it.skipIf(!haveAnalyze && !process.env.CI)("passes systemd-analyze verify with no warnings", () => {
    expect(haveAnalyze, "systemd-analyze missing: CI needs the Debian package `systemd`").toBe(true);
    expect(verify(text)).toEqual({ status: 0, output: "" });
  });

  it.skipIf(!haveAnalyze)("the verify check can fail: a typo in the unit is reported", () => {
    const broken = verify(
      text.replace(/^Type=notify$/m, "Type=notifyy").replace(/^WatchdogSec=30$/m, "WatchdogSec=x"),
    );
    expect(broken.output).toMatch(/service type/);
    expect(broken.output).toMatch(/sec value/);
    const missing = verify(text.replace(/^ExecStart=\/usr\/bin\/node /m, "ExecStart=/nonexistent/node "));
    expect(missing.output).toMatch(/not executable/);
  });

  it("is a notify service with a watchdog, restarts on failure and accepts the helper's messages", () => {
    expect(one("Service.Type")).toBe("notify");
    expect(one("Service.NotifyAccess")).toBe("all");
    expect(Number(one("Service.WatchdogSec"))).toBeGreaterThan(0);
    expect(one("Service.Restart")).toBe("on-failure");
    expect(one("Service.Environment")).toContain("MALLOC_ARENA_MAX=2");
    expect(one("Service.Environment")).toContain("MALLOC_MMAP_THRESHOLD_=4194304");
    // The peek benches measure with the same settings (`DAEMON_MALLOC_ENV`).
    const environment = unit.get("Service.Environment") ?? [];
    for (const [key, value] of Object.entries(DAEMON_MALLOC_ENV))
      expect(environment).toContain(`${key}=${value}`);
  });

  it("runs the installed app as the piclaw user with the device groups and its state directory", () => {
    expect(one("Service.ExecStart")).toBe(
      `/usr/bin/node ${DAEMON_NODE_FLAGS.join(" ")} /opt/piclaw/bin/piclaw.js start --config /etc/piclaw/config.yaml`,
    );
    expect(one("Service.User")).toBe("piclaw");
    expect(one("Service.SupplementaryGroups")?.split(/\s+/).sort()).toEqual(["dialout", "gpio", "video"]);
    expect(one("Service.StateDirectory")).toBe("piclaw");
  });

  it("starts node with the daemon's V8 flags, as `npm start` does", () => {
    expect(DAEMON_NODE_FLAGS.length).toBeGreaterThan(0);
    const pkg = JSON.parse(readFileSync(join(projectRoot(), "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.start).toBe(`node ${DAEMON_NODE_FLAGS.join(" ")} bin/piclaw.js start`);
  });

  it("is hardened, but leaves device nodes and the GPIO/PWM sysfs writable", () => {
    for (const [key, value] of [
      ["ProtectSystem", "strict"],
      ["NoNewPrivileges", "yes"],
      ["PrivateTmp", "yes"],
      ["ProtectHome", "yes"],
      ["ProtectKernelTunables", "yes"],
      ["RestrictAddressFamilies", "AF_UNIX AF_INET AF_INET6 AF_NETLINK"],
    ] as const)
      expect(one(`Service.${key}`), key).toBe(value);
    const writable = (unit.get("Service.ReadWritePaths") ?? []).join(" ").split(/\s+/);
    expect(writable).toEqual(
      expect.arrayContaining([
        "/var/lib/piclaw",
        "-/sys/class/gpio",
        "-/sys/class/pwm",
        "-/sys/devices/platform",
      ]),
    );
    // Any of these would hide or allow-list /dev and cut off the camera, GPIO and serial devices.
    for (const key of [
      "PrivateDevices",
      "DevicePolicy",
      "DeviceAllow",
      "ProtectClock",
      "MemoryDenyWriteExecute",
    ])
      expect(unit.has(`Service.${key}`), key).toBe(false);
  });
});
