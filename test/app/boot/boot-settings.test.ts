import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { BootSystem } from "../../../src/app/boot/apply.js";
import { runBootSettings } from "../../../src/app/boot/main.js";
import { parsePiclawTxt } from "../../../src/app/boot/piclaw-txt.js";

const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGnqR0M4b1cX8oXgk1aQ2aQzJ6p7n3fY0Xn7o6V2f0qA me@laptop";
const PSK = "5e8f1d9b7c3a2e4f6a8b0c1d2e3f405162738495a6b7c8d9e0f1a2b3c4d5e6f7";
const CONFIG = "# PiClaw on the SD image.\nstateDir: /var/lib/piclaw\nrig:\n  backend: sim\n";

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

/** A target system in a temp folder: the files the settings touch, and a log of the programs run. */
function fakeSystem() {
  const root = mkdtempSync(join(tmpdir(), "piclaw-boot-"));
  roots.push(root);
  const put = (p: string, text: string) => {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  };
  put("/etc/hosts", "127.0.0.1\tlocalhost\n127.0.1.1\tpiclaw\n");
  put("/etc/hostname", "piclaw\n");
  put("/etc/group", "users:x:100:\nvideo:x:44:\n");
  put("/etc/piclaw/config.yaml", CONFIG);
  put("/usr/share/zoneinfo/Europe/London", "TZif");
  put("/usr/share/i18n/SUPPORTED", "en_GB.UTF-8 UTF-8\nen_US.UTF-8 UTF-8\n");
  put("/usr/sbin/wpa_supplicant", "");
  put("/etc/default/keyboard", "");
  put("/opt/piclaw/calibration/profiles/corexy-fluidnc.yaml", "name: corexy-fluidnc\n");
  const ran: string[] = [];
  const users = new Map<string, { uid: number; gid: number; home: string }>();
  const sys: BootSystem = {
    path: (p) => join(root, p),
    run: (cmd, args) => {
      ran.push([cmd, ...args].join(" "));
      if (cmd === "useradd")
        users.set(args.at(-1) ?? "", { uid: 1000, gid: 1000, home: `/home/${args.at(-1)}` });
    },
    user: (name) => users.get(name) ?? null,
    chown: () => {},
  };
  const lines: string[] = [];
  const run = () =>
    runBootSettings({
      bootDir: "/boot/firmware",
      stateDir: join(root, "var/lib/piclaw-boot"),
      configPath: "/etc/piclaw/config.yaml",
      profilesDir: "/opt/piclaw/calibration/profiles",
      passcodePath: "/var/lib/piclaw/phone-passcode",
      sys,
      now: () => new Date("2026-11-25T18:00:00Z"),
      log: (l) => lines.push(l),
    });
  const read = (p: string) => readFileSync(join(root, p), "utf8");
  return { root, put, read, ran, lines, run };
}

const USER_DATA = `#cloud-config\nhostname: rig-one\ntimezone: Europe/London\nlocale: en_GB.UTF-8\nusers:\n- name: alice\n  ssh_authorized_keys:\n    - ${KEY}\n`;
const NETWORK = `network:\n  version: 2\n  wifis:\n    wlan0:\n      regulatory-domain: "GB"\n      access-points:\n        "Home":\n          password: "${PSK}"\n`;

describe("runBootSettings", () => {
  it("turns the Imager's cloud-init files into the system's settings, once", () => {
    const t = fakeSystem();
    t.put("/boot/firmware/user-data", USER_DATA);
    t.put("/boot/firmware/network-config", NETWORK);
    const status = t.run();
    expect(status.sources).toEqual([
      expect.objectContaining({ file: "user-data, network-config", state: "applied", errors: [] }),
    ]);
    expect(t.read("/etc/hostname")).toBe("rig-one\n");
    expect(t.read("/etc/hosts")).toContain("127.0.1.1\trig-one\n");
    expect(t.read("/root/.ssh/authorized_keys")).toBe(`${KEY}\n`);
    expect(t.read("/home/alice/.ssh/authorized_keys")).toBe(`${KEY}\n`);
    const wpa = t.read("/etc/wpa_supplicant/wpa_supplicant-wlan0.conf");
    expect(wpa).toContain("country=GB\n");
    expect(wpa).toContain('\tssid="Home"\n');
    expect(wpa).toContain(`\tpsk=${PSK}\n`);
    expect(
      readlinkSync(
        join(
          t.root,
          "etc/systemd/system/sys-subsystem-net-devices-wlan0.device.wants/wpa_supplicant@wlan0.service",
        ),
      ),
    ).toBe("/usr/lib/systemd/system/wpa_supplicant@.service");
    expect(readlinkSync(join(t.root, "etc/localtime"))).toBe("/usr/share/zoneinfo/Europe/London");
    expect(t.read("/etc/default/locale")).toBe("LANG=en_GB.UTF-8\n");
    expect(t.ran).toEqual(
      expect.arrayContaining(["hostname rig-one", "locale-gen", "systemctl daemon-reload"]),
    );
    expect(JSON.parse(t.read("/var/lib/piclaw-boot/status.json"))).toEqual(status);

    t.ran.length = 0;
    expect(t.run().sources[0]).toMatchObject({ state: "unchanged", applied: status.sources[0]?.applied });
    expect(t.ran).toEqual([]);
  });

  it("applies nothing from a file with an error, and says so", () => {
    const t = fakeSystem();
    t.put("/boot/firmware/user-data", USER_DATA.replace("Europe/London", "Europe/Atlantis"));
    t.put("/boot/firmware/network-config", NETWORK);
    const [source] = t.run().sources;
    expect(source?.state).toBe("rejected");
    expect(source?.errors.join()).toMatch(/Europe\/Atlantis/);
    expect(t.read("/etc/hostname")).toBe("piclaw\n");
    expect(existsSync(join(t.root, "etc/wpa_supplicant"))).toBe(false);
    expect(t.lines.join("\n")).toMatch(/error: .*nothing from this file was applied/);
    // Still rejected (and reported) at the next boot: a rejected file is never marked as applied.
    expect(t.run().sources[0]?.state).toBe("rejected");
  });

  it("leaves the Imager's files to cloud-init where the OS has it (Raspberry Pi OS)", () => {
    const t = fakeSystem();
    t.put("/usr/bin/cloud-init", "");
    t.put("/boot/firmware/network-config", NETWORK);
    expect(t.run().sources).toEqual([expect.objectContaining({ state: "left-to-os" })]);
    expect(existsSync(join(t.root, "etc/wpa_supplicant"))).toBe(false);
  });

  it("applies piclaw.txt to the config and moves the passcode off the boot partition", () => {
    const t = fakeSystem();
    t.put(
      "/boot/firmware/piclaw.txt",
      "# mine\nrig_backend=hardware\nrig_profile=corexy-fluidnc\npasscode_file=pass.txt\n",
    );
    t.put("/boot/firmware/pass.txt", "123456\n");
    const [source] = t.run().sources;
    expect(source).toMatchObject({ format: "piclaw.txt", state: "applied" });
    const config = t.read("/etc/piclaw/config.yaml");
    expect(config).toContain("# PiClaw on the SD image.");
    expect(config).toMatch(/backend: hardware/);
    expect(config).toMatch(/passcodeFile: \/var\/lib\/piclaw\/phone-passcode/);
    expect(t.read("/var/lib/piclaw/phone-passcode")).toBe("123456\n");
    expect(existsSync(join(t.root, "boot/firmware/pass.txt"))).toBe(false);
  });

  it("rejects piclaw.txt whole when one key is wrong", () => {
    const t = fakeSystem();
    t.put("/boot/firmware/piclaw.txt", "rig_backend=hardware\nrig_profile=no-such-rig\n");
    const [source] = t.run().sources;
    expect(source?.state).toBe("rejected");
    expect(source?.errors.join()).toMatch(/no-such-rig: no such profile/);
    expect(t.read("/etc/piclaw/config.yaml")).toBe(CONFIG);
  });
});

describe("parsePiclawTxt", () => {
  it("reports unknown keys, bad values and syntax together", () => {
    expect(() => parsePiclawTxt("rig_backend=real\ncolour=blue\njunk\n")).toThrow(
      /line 3: expected key=value.*unknown key colour.*rig_backend/s,
    );
    expect(parsePiclawTxt("serial_path=/dev/ttyUSB0  # the board\n")).toEqual({
      serial_path: "/dev/ttyUSB0",
    });
  });
});
