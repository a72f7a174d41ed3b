import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { errorMessage, PiclawError } from "../../util/errors.js";
import { parseTomlSubset } from "./toml-subset.js";

/**
 * The Raspberry Pi Imager's "OS customisation" as it lands on the boot partition, read into one shape.
 * The Imager writes one of these formats, depending on what the chosen OS declares (`init_format` in
 * its OS list entry); sources (read 2026-11):
 * - cloud-init (`cloudinit-rpi`, Raspberry Pi OS trixie and the Imager 2.x): `user-data`
 *   (#cloud-config: hostname, timezone, keyboard, users[].ssh_authorized_keys) and `network-config`
 *   (netplan v2: wifis.wlan0.access-points.{SSID}.password = the PBKDF2 PSK in hex,
 *   regulatory-domain) and `meta-data` — rpi-imager src/customization_generator.cpp,
 *   generateCloudInitUserData / generateCloudInitNetworkConfig
 *   (https://github.com/raspberrypi/rpi-imager).
 * - `firstrun.sh` (`systemd`, older images and custom images): a shell script started by
 *   `systemd.run=` on cmdline.txt that calls `/usr/lib/raspberrypi-sys-mods/imager_custom
 *   set_hostname|enable_ssh -k KEYS|set_wlan [-h] SSID PSK COUNTRY|set_keymap|set_timezone` and
 *   `/usr/lib/userconf-pi/userconf USER HASH` — customization_generator.cpp generateSystemdScript;
 *   the commands are those of RPi-Distro/raspberrypi-sys-mods usr/lib/raspberrypi-sys-mods/imager_custom.
 * - `custom.toml` (raspberrypi-sys-mods' `firstboot` → `init_config`, bookworm): [system] hostname,
 *   [user] name, [ssh] authorized_keys, [wlan] ssid/password/password_encrypted/hidden/country,
 *   [locale] keymap/timezone — RPi-Distro/raspberrypi-sys-mods usr/lib/raspberrypi-sys-mods/init_config.
 * On Raspberry Pi OS the OS applies these itself (cloud-init, systemd.run, firstboot); PiClaw applies
 * them only where nothing else will (the Debian image).
 */

/** One Wi-Fi network: `psk` is 64 hex digits (a precomputed key, what the Imager writes) or a passphrase. */
export interface WifiNetwork {
  ssid: string;
  psk: string | null;
  hidden: boolean;
}

/** What the Imager asked for, validated. `ignored` lists what was read but is not applied, with why. */
export interface ImagerSettings {
  format: "cloud-init" | "firstrun.sh" | "custom.toml";
  hostname?: string;
  /** The login the Imager would create (keys-only here: passwords are never applied). */
  user?: string;
  sshKeys: string[];
  wifi: WifiNetwork[];
  wifiCountry?: string;
  timezone?: string;
  locale?: string;
  ignored: string[];
}

const hostnameSchema = z
  .string()
  .regex(/^[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/, "must be 1-63 letters, digits or inner hyphens");
const sshKeySchema = z
  .string()
  .regex(
    /^(ssh-(ed25519|rsa|dss)|ecdsa-sha2-nistp(256|384|521)|sk-(ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com) [A-Za-z0-9+/]+=*( [^\n]*)?$/,
    "is not an SSH public key line",
  );
const ssidSchema = z
  .string()
  .refine((s) => Buffer.byteLength(s) >= 1 && Buffer.byteLength(s) <= 32, "SSID must be 1-32 bytes")
  .refine((s) => !/[\n\r"]/.test(s), "SSID with a newline or double quote is not supported");
const pskSchema = z
  .string()
  .refine(
    (s) => /^[0-9a-fA-F]{64}$/.test(s) || (s.length >= 8 && s.length <= 63 && /^[\x20-\x7e]+$/.test(s)),
    "Wi-Fi password must be 8-63 printable ASCII characters or a 64-digit hex key",
  );
const countrySchema = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.string().regex(/^[A-Z]{2}$/, "Wi-Fi country must be a two-letter code (ISO 3166-1, e.g. GB)"));
const timezoneSchema = z
  .string()
  .regex(/^[A-Za-z0-9_+-]+(\/[A-Za-z0-9_+-]+){0,2}$/, "is not a time zone name like Europe/London");
const localeSchema = z
  .string()
  .regex(/^[a-z]{2,3}_[A-Z]{2}(\.(UTF-8|utf8))?(@[a-z]+)?$/, "is not a locale name like en_GB.UTF-8");
const userSchema = z.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/, "is not a valid user name");

const wifiSchema = z.object({ ssid: ssidSchema, psk: pskSchema.nullable(), hidden: z.boolean() });
const settingsSchema = z.object({
  hostname: hostnameSchema.optional(),
  user: userSchema.optional(),
  sshKeys: z.array(sshKeySchema),
  wifi: z.array(wifiSchema).max(8),
  wifiCountry: countrySchema.optional(),
  timezone: timezoneSchema.optional(),
  locale: localeSchema.optional(),
});

type Draft = Omit<ImagerSettings, "format" | "ignored">;

/** Validate a draft; every problem at once, as "field: message" lines, in one PiclawError. */
function finish(format: ImagerSettings["format"], draft: Draft, ignored: string[]): ImagerSettings {
  const parsed = settingsSchema.safeParse(draft);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || format}: ${i.message}`);
    throw new PiclawError("BOOT_SETTINGS_INVALID", `${format}: ${problems.join("; ")}`, { problems });
  }
  const out: ImagerSettings = { format, sshKeys: parsed.data.sshKeys, wifi: parsed.data.wifi, ignored };
  for (const key of ["hostname", "user", "wifiCountry", "timezone", "locale"] as const) {
    const value = parsed.data[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

const asRecord = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const asStrings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string").map((s) => s.trim()) : [];

function parseYamlFile(name: string, text: string): unknown {
  try {
    return parseYaml(text);
  } catch (err) {
    throw new PiclawError("BOOT_SETTINGS_INVALID", `${name}: not valid YAML (${errorMessage(err)})`);
  }
}

/** cloud-init keys the Imager writes that need nothing here (or cannot apply), and why. */
const CLOUD_INIT_NOT_APPLIED: Record<string, string> = {
  packages: "no package installs at boot (avahi-daemon is already in the image)",
  apt: "no package installs at boot",
  manage_resolv_conf: "systemd-resolved manages DNS",
  manage_etc_hosts: "/etc/hosts is updated with the hostname",
  keyboard: "headless image: no console keymap",
  enable_ssh: "SSH is always on (keys only)",
  ssh_pwauth: "SSH is keys only",
  runcmd: "boot-partition scripts are not run",
  rpi: "interface switches (I2C/SPI/serial) are set by the rig profile",
  chpasswd: "passwords are not applied (keys only)",
};

/**
 * The Imager's cloud-init files: `user-data` (must be #cloud-config) and `network-config` (netplan v2).
 * Either may be null (absent). Throws PiclawError BOOT_SETTINGS_INVALID listing every problem.
 */
export function parseCloudInit(userData: string | null, networkConfig: string | null): ImagerSettings {
  const draft: Draft = { sshKeys: [], wifi: [] };
  const ignored: string[] = [];
  if (userData !== null) {
    if (!userData.trimStart().startsWith("#cloud-config")) {
      throw new PiclawError("BOOT_SETTINGS_INVALID", "user-data: only #cloud-config user data is supported");
    }
    const doc = asRecord(parseYamlFile("user-data", userData));
    for (const [key, value] of Object.entries(doc)) {
      if (key === "hostname" || key === "timezone" || key === "locale") {
        if (typeof value !== "string") {
          throw new PiclawError("BOOT_SETTINGS_INVALID", `user-data: ${key} must be a string`);
        }
        draft[key] = value.trim();
      } else if (key === "ssh_authorized_keys") {
        draft.sshKeys.push(...asStrings(value));
      } else if (key === "users") {
        for (const entry of Array.isArray(value) ? value : []) {
          if (entry === "default") continue;
          const user = asRecord(entry);
          if (typeof user.name === "string" && draft.user === undefined) draft.user = user.name;
          draft.sshKeys.push(...asStrings(user.ssh_authorized_keys ?? user["ssh-authorized-keys"]));
          if (user.passwd !== undefined || user.plain_text_passwd !== undefined) {
            ignored.push(`users.${String(user.name)}.passwd: passwords are not applied (keys only)`);
          }
        }
      } else {
        ignored.push(`${key}: ${CLOUD_INIT_NOT_APPLIED[key] ?? "not supported here"}`);
      }
    }
  }
  if (networkConfig !== null) {
    const doc = asRecord(parseYamlFile("network-config", networkConfig));
    const network = asRecord(doc.network ?? doc);
    if (network.version !== undefined && network.version !== 2) {
      throw new PiclawError("BOOT_SETTINGS_INVALID", "network-config: only netplan version 2 is supported");
    }
    for (const [iface, raw] of Object.entries(asRecord(network.wifis))) {
      const cfg = asRecord(raw);
      const domain = cfg["regulatory-domain"];
      if (typeof domain === "string") draft.wifiCountry = domain;
      for (const [ssid, ap] of Object.entries(asRecord(cfg["access-points"]))) {
        const point = asRecord(ap);
        const auth = asRecord(point.auth);
        const password = point.password ?? auth.password;
        draft.wifi.push({
          ssid,
          psk: typeof password === "string" ? password : null,
          hidden: point.hidden === true,
        });
      }
      if (iface !== "wlan0") ignored.push(`wifis.${iface}: applied to wlan0`);
    }
  }
  return finish("cloud-init", draft, ignored);
}

/** Split one line of shell into words: bare words, '…' and "…" (the quoting the Imager emits). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line.charAt(i);
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      if (end < 0)
        throw new PiclawError("BOOT_SETTINGS_INVALID", `firstrun.sh: unterminated quote in: ${line}`);
      word = (word ?? "") + line.slice(i + 1, end);
      i = end;
    } else if (c === " " || c === "\t") {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "#" && word === null) {
      break;
    } else {
      word = (word ?? "") + c;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

/**
 * The Imager's `firstrun.sh`: only its `imager_custom …` and `userconf …` calls are read (the
 * script's fallback branches repeat the same values); the script itself is never run.
 */
export function parseFirstrun(script: string): ImagerSettings {
  const draft: Draft = { sshKeys: [], wifi: [] };
  const ignored: string[] = [];
  for (const raw of script.split("\n")) {
    const words = shellWords(raw.trim());
    // A call, not a test such as `if [ -f …/imager_custom ]`: the tool is the command's first word.
    const first = words[0] ?? "";
    if (!first.endsWith("/imager_custom") && !first.endsWith("/userconf")) continue;
    const [tool, cmd, ...args] = words;
    if (tool?.endsWith("/userconf")) {
      if (cmd) draft.user = cmd;
      continue;
    }
    if (cmd === "set_hostname" && args[0]) draft.hostname = args[0];
    else if (cmd === "enable_ssh") draft.sshKeys.push(...args.filter((a) => !a.startsWith("-")));
    else if (cmd === "set_wlan") {
      const hidden = args.includes("-h") || args.includes("--hidden");
      const [ssid, psk, country] = args.filter((a) => !a.startsWith("-"));
      if (ssid !== undefined) draft.wifi.push({ ssid, psk: psk ?? null, hidden });
      if (country) draft.wifiCountry = country;
    } else if (cmd === "set_wlan_country" && args[0]) draft.wifiCountry = args[0];
    else if (cmd === "set_timezone" && args[0]) draft.timezone = args[0];
    else if (cmd === "set_keymap") ignored.push("set_keymap: headless image: no console keymap");
    else ignored.push(`${cmd ?? "imager_custom"}: not supported here`);
  }
  return finish("firstrun.sh", draft, ignored);
}

/** raspberrypi-sys-mods' `custom.toml` (config_version = 1). */
export function parseCustomToml(text: string): ImagerSettings {
  const doc = parseTomlSubset(text);
  if (doc.config_version !== 1) {
    throw new PiclawError("BOOT_SETTINGS_INVALID", "custom.toml: config_version must be 1");
  }
  const section = (name: string) => asRecord(doc[name]);
  const draft: Draft = { sshKeys: asStrings(section("ssh").authorized_keys), wifi: [] };
  const ignored: string[] = [];
  const pick = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
  const hostname = pick(section("system").hostname);
  if (hostname) draft.hostname = hostname;
  const user = pick(section("user").name);
  if (user) draft.user = user;
  const wlan = section("wlan");
  const ssid = pick(wlan.ssid);
  if (ssid) draft.wifi.push({ ssid, psk: pick(wlan.password) ?? null, hidden: wlan.hidden === true });
  const country = pick(wlan.country);
  if (country) draft.wifiCountry = country;
  const timezone = pick(section("locale").timezone);
  if (timezone) draft.timezone = timezone;
  if (section("locale").keymap !== undefined)
    ignored.push("locale.keymap: headless image: no console keymap");
  if (section("user").password !== undefined)
    ignored.push("user.password: passwords are not applied (keys only)");
  return finish("custom.toml", draft, ignored);
}
