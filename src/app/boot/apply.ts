import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parseDocument } from "yaml";
import { writeFileAtomic } from "../../util/atomic-file.js";
import { errorMessage, PiclawError } from "../../util/errors.js";
import { configSchema } from "../config/schema.js";
import type { ImagerSettings, WifiNetwork } from "./imager.js";
import type { PiclawTxt } from "./piclaw-txt.js";

/** The system the settings are applied to; injected so tests run against a folder, not the machine. */
export interface BootSystem {
  /** Where an absolute path of the target system is (identity on the Pi; a temp root in tests). */
  path(p: string): string;
  /** Run a program of the target system; throws when it fails. */
  run(cmd: string, args: string[]): void;
  /** uid/gid of a user of the target system, or null when there is none. */
  user(name: string): { uid: number; gid: number; home: string } | null;
  /** chown (a real path, i.e. already through path()). */
  chown(realPath: string, uid: number, gid: number): void;
}

const fail = (message: string): never => {
  throw new PiclawError("BOOT_SETTINGS_INVALID", message);
};

/**
 * Check what can only be checked against the system (the time zone and locale exist), before
 * anything is written: a settings file is applied whole or not at all.
 */
export function checkImager(settings: ImagerSettings, sys: BootSystem): void {
  const problems: string[] = [];
  if (settings.timezone && !existsSync(sys.path(`/usr/share/zoneinfo/${settings.timezone}`))) {
    problems.push(`timezone ${settings.timezone}: unknown (no /usr/share/zoneinfo/${settings.timezone})`);
  }
  if (settings.locale && !supportedLocale(settings.locale, sys)) {
    problems.push(`locale ${settings.locale}: not in /usr/share/i18n/SUPPORTED`);
  }
  if (settings.wifi.length > 0 && !existsSync(sys.path("/usr/sbin/wpa_supplicant"))) {
    problems.push("wifi: this image has no wpa_supplicant");
  }
  if (problems.length > 0) fail(`${settings.format}: ${problems.join("; ")}`);
}

function supportedLocale(locale: string, sys: BootSystem): string | null {
  const file = sys.path("/usr/share/i18n/SUPPORTED");
  if (!existsSync(file)) return null;
  const want = locale.replace(/\.utf8$/, ".UTF-8");
  const line = readFileSync(file, "utf8")
    .split("\n")
    .find((l) => l.split(" ")[0] === want);
  return line ?? null;
}

/**
 * Apply Imager settings on an image where nothing else does (the Debian image: no cloud-init, no
 * raspberrypi-sys-mods). Call checkImager first. Returns one line per applied setting.
 */
export function applyImager(settings: ImagerSettings, sys: BootSystem): string[] {
  const done: string[] = [];
  if (settings.hostname) {
    setHostname(settings.hostname, sys);
    done.push(`hostname ${settings.hostname}`);
  }
  if (settings.sshKeys.length > 0) {
    addKeys("/root", settings.sshKeys, sys, 0, 0);
    if (settings.user) {
      ensureUser(settings.user, sys);
      const account = sys.user(settings.user);
      if (account) addKeys(account.home, settings.sshKeys, sys, account.uid, account.gid);
    }
    done.push(
      `${settings.sshKeys.length} SSH key(s) for root${settings.user ? ` and ${settings.user}` : ""}`,
    );
  }
  if (settings.wifi.length > 0 || settings.wifiCountry) {
    writeWifi(settings.wifi, settings.wifiCountry, sys);
    done.push(
      settings.wifi.length > 0
        ? `wifi ${settings.wifi.map((w) => w.ssid).join(", ")}${settings.wifiCountry ? ` (${settings.wifiCountry})` : ""}`
        : `wifi country ${settings.wifiCountry}`,
    );
  }
  if (settings.timezone) {
    rmSync(sys.path("/etc/localtime"), { force: true });
    symlinkSync(`/usr/share/zoneinfo/${settings.timezone}`, sys.path("/etc/localtime"));
    writeFileSync(sys.path("/etc/timezone"), `${settings.timezone}\n`);
    done.push(`timezone ${settings.timezone}`);
  }
  if (settings.locale) {
    setLocale(settings.locale, sys);
    done.push(`locale ${settings.locale}`);
  }
  return done;
}

function setHostname(name: string, sys: BootSystem): void {
  const hostsPath = sys.path("/etc/hosts");
  const hosts = existsSync(hostsPath) ? readFileSync(hostsPath, "utf8") : "127.0.0.1\tlocalhost\n";
  const line = `127.0.1.1\t${name}`;
  const updated = /^127\.0\.1\.1\s.*$/m.test(hosts)
    ? hosts.replace(/^127\.0\.1\.1\s.*$/m, line)
    : `${hosts}${line}\n`;
  writeFileSync(hostsPath, updated);
  writeFileSync(sys.path("/etc/hostname"), `${name}\n`);
  sys.run("hostname", [name]);
}

function addKeys(home: string, keys: string[], sys: BootSystem, uid: number, gid: number): void {
  const dir = sys.path(`${home}/.ssh`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = `${dir}/authorized_keys`;
  const existing = existsSync(file) ? readFileSync(file, "utf8").split("\n") : [];
  const fresh = keys.filter((k) => !existing.includes(k));
  const body = [...existing.filter((l) => l !== ""), ...fresh].join("\n");
  writeFileAtomic(file, `${body}\n`, { mode: 0o600 });
  sys.chown(dir, uid, gid);
  sys.chown(file, uid, gid);
}

/** The Imager's login: made like `useradd -m`, no password (key-only SSH), in the groups that exist. */
function ensureUser(name: string, sys: BootSystem): void {
  if (sys.user(name)) return;
  const groups = [
    "users",
    "adm",
    "dialout",
    "audio",
    "netdev",
    "video",
    "plugdev",
    "gpio",
    "i2c",
    "spi",
    "render",
  ];
  const groupFile = readFileSync(sys.path("/etc/group"), "utf8");
  const present = groups.filter((g) => new RegExp(`^${g}:`, "m").test(groupFile));
  sys.run("useradd", ["--create-home", "--shell", "/bin/bash", "--groups", present.join(","), name]);
}

/** wpa_supplicant's quoted string, or the bare 64-hex PSK. */
function wpaPsk(w: WifiNetwork): string {
  if (w.psk === null) return "";
  return /^[0-9a-fA-F]{64}$/.test(w.psk) ? `\tpsk=${w.psk.toLowerCase()}\n` : `\tpsk="${w.psk}"\n`;
}

/**
 * Debian image: wpa_supplicant@wlan0 + systemd-networkd (25-wireless.network runs DHCP). The unit is
 * wanted by the wlan0 device, so it starts when the Wi-Fi chip's driver is up and never delays a boot
 * without one. WPA2/WPA3 transition as the Imager's own fallback writes it (key_mgmt WPA-PSK SAE,
 * optional management-frame protection).
 */
function writeWifi(networks: WifiNetwork[], country: string | undefined, sys: BootSystem): void {
  const blocks = networks.map(
    (w) =>
      `network={\n\tssid="${w.ssid}"\n${w.hidden ? "\tscan_ssid=1\n" : ""}${
        w.psk === null ? "\tkey_mgmt=NONE\n" : `\tkey_mgmt=WPA-PSK SAE\n${wpaPsk(w)}\tieee80211w=1\n`
      }}\n`,
  );
  const conf =
    `# Written by piclaw-boot-settings from the boot partition's Imager settings.\n` +
    `ctrl_interface=DIR=/run/wpa_supplicant GROUP=netdev\nupdate_config=1\n` +
    `${country ? `country=${country}\n` : ""}\n${blocks.join("\n")}`;
  writeFileAtomic(sys.path("/etc/wpa_supplicant/wpa_supplicant-wlan0.conf"), conf, { mode: 0o600 });
  if (networks.length === 0) return;
  const wants = sys.path("/etc/systemd/system/sys-subsystem-net-devices-wlan0.device.wants");
  mkdirSync(wants, { recursive: true });
  rmSync(`${wants}/wpa_supplicant@wlan0.service`, { force: true });
  symlinkSync("/usr/lib/systemd/system/wpa_supplicant@.service", `${wants}/wpa_supplicant@wlan0.service`);
  sys.run("systemctl", ["daemon-reload"]);
  if (existsSync(sys.path("/sys/class/net/wlan0"))) {
    sys.run("systemctl", ["--no-block", "restart", "wpa_supplicant@wlan0.service"]);
  }
}

function setLocale(locale: string, sys: BootSystem): void {
  const line = supportedLocale(locale, sys) ?? fail(`locale ${locale}: not supported`);
  const genPath = sys.path("/etc/locale.gen");
  const gen = existsSync(genPath) ? readFileSync(genPath, "utf8") : "";
  if (!gen.split("\n").includes(line)) writeFileSync(genPath, `${gen}${line}\n`);
  sys.run("locale-gen", []);
  writeFileSync(sys.path("/etc/default/locale"), `LANG=${line.split(" ")[0]}\n`);
}

/** Where piclaw.txt's settings go. */
export interface PiclawTxtTarget {
  bootDir: string;
  configPath: string;
  profilesDir: string;
  /** Where the passcode is kept (service user, 0600). */
  passcodePath: string;
}

/**
 * Apply piclaw.txt to the config file: checked in full first (profile exists, passcode file readable,
 * the resulting config valid against the daemon's own schema), then written atomically; the passcode
 * file is moved off the FAT partition (anyone with the card could read it there).
 */
export function applyPiclawTxt(txt: PiclawTxt, target: PiclawTxtTarget, sys: BootSystem): string[] {
  const problems: string[] = [];
  if (txt.rig_profile && !existsSync(sys.path(`${target.profilesDir}/${txt.rig_profile}.yaml`))) {
    problems.push(`rig_profile ${txt.rig_profile}: no such profile in ${target.profilesDir}`);
  }
  let passcode: string | null = null;
  if (txt.passcode_file) {
    const file = sys.path(`${target.bootDir}/${txt.passcode_file}`);
    if (existsSync(file)) {
      passcode = readFileSync(file, "utf8").split(/\r?\n/)[0]?.trim() ?? "";
      if (!/^[0-9A-Za-z]{4,16}$/.test(passcode)) {
        problems.push(
          `passcode_file ${txt.passcode_file}: the first line must be the 4-16 character passcode`,
        );
      }
    } else if (!existsSync(sys.path(target.passcodePath))) {
      problems.push(`passcode_file ${txt.passcode_file}: not on the boot partition`);
    }
  }
  const configFile = sys.path(target.configPath);
  const doc = parseDocument(existsSync(configFile) ? readFileSync(configFile, "utf8") : "{}\n");
  if (doc.errors.length > 0)
    problems.push(`${target.configPath}: ${doc.errors[0]?.message ?? "not valid YAML"}`);
  const done: string[] = [];
  const set = (path: string[], value: string, label: string) => {
    doc.setIn(path, value);
    done.push(label);
  };
  if (txt.rig_backend) set(["rig", "backend"], txt.rig_backend, `rig.backend ${txt.rig_backend}`);
  if (txt.rig_profile) set(["rig", "profile"], txt.rig_profile, `rig.profile ${txt.rig_profile}`);
  if (txt.serial_path) set(["rig", "serialPath"], txt.serial_path, `rig.serialPath ${txt.serial_path}`);
  if (txt.passcode_file) set(["phone", "passcodeFile"], target.passcodePath, "phone.passcodeFile");
  const checked = configSchema.safeParse(doc.toJS());
  if (!checked.success) {
    problems.push(
      ...checked.error.issues.map(
        (i) => `config ${i.path.join(".")}: ${i.message} (after applying piclaw.txt)`,
      ),
    );
  }
  if (problems.length > 0) fail(`piclaw.txt: ${problems.join("; ")}`);

  if (passcode !== null) {
    const owner = sys.user("piclaw");
    const file = sys.path(target.passcodePath);
    writeFileAtomic(file, `${passcode}\n`, { mode: 0o600 });
    if (owner) sys.chown(file, owner.uid, owner.gid);
    rmSync(sys.path(`${target.bootDir}/${txt.passcode_file}`), { force: true });
  }
  if (done.length > 0) {
    const before = existsSync(configFile) ? statSync(configFile) : null;
    mkdirSync(dirname(configFile), { recursive: true });
    writeFileAtomic(configFile, doc.toString(), { mode: before ? before.mode & 0o777 : 0o640 });
    if (before) {
      try {
        sys.chown(configFile, before.uid, before.gid);
      } catch (err) {
        fail(`${target.configPath}: could not keep its owner (${errorMessage(err)})`);
      }
    }
  }
  return done;
}
