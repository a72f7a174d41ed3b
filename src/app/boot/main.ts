import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chownSync, existsSync, readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { writeFileAtomic, writeJsonAtomic } from "../../util/atomic-file.js";
import { errorMessage } from "../../util/errors.js";
import { applyImager, applyPiclawTxt, type BootSystem, checkImager } from "./apply.js";
import { type ImagerSettings, parseCloudInit, parseCustomToml, parseFirstrun } from "./imager.js";
import { parsePiclawTxt } from "./piclaw-txt.js";
import { type BootSource, type BootStatus, readBootStatus } from "./status.js";

/**
 * `piclaw-boot-settings` (piclaw-boot-settings.service, every boot, before the network and SSH): the
 * settings files on the boot partition → the system. Each file is applied when its content changed
 * since it was last applied (sha256 kept in the state folder), whole or not at all; what happened is
 * logged and written to the status file (status.ts) for the dashboard. Never fails the boot.
 * Usage: node dist/src/app/boot/main.js [--boot /boot/firmware] [--state /var/lib/piclaw-boot]
 */
export interface BootSettingsOptions {
  bootDir: string;
  stateDir: string;
  configPath: string;
  profilesDir: string;
  passcodePath: string;
  sys: BootSystem;
  now: () => Date;
  log: (line: string) => void;
}

interface Candidate {
  format: BootSource["format"];
  files: string[];
  /** Whether the OS applies this format itself (then PiClaw leaves it alone). */
  leftToOs: boolean;
  apply: (text: (name: string) => string | null) => { applied: string[]; ignored: string[] };
}

/** Run once over the boot partition; returns the status it wrote. */
export function runBootSettings(o: BootSettingsOptions): BootStatus {
  const hasCloudInit = existsSync(o.sys.path("/usr/bin/cloud-init"));
  const hasSysMods = existsSync(o.sys.path("/usr/lib/raspberrypi-sys-mods/imager_custom"));
  const imager = (parse: () => ImagerSettings) => {
    const settings = parse();
    checkImager(settings, o.sys);
    return { applied: applyImager(settings, o.sys), ignored: settings.ignored };
  };
  const candidates: Candidate[] = [
    {
      format: "cloud-init",
      files: ["user-data", "network-config"],
      leftToOs: hasCloudInit,
      apply: (text) => imager(() => parseCloudInit(text("user-data"), text("network-config"))),
    },
    {
      format: "firstrun.sh",
      files: ["firstrun.sh"],
      leftToOs: hasSysMods,
      apply: (text) => imager(() => parseFirstrun(text("firstrun.sh") ?? "")),
    },
    {
      format: "custom.toml",
      files: ["custom.toml"],
      leftToOs: hasSysMods,
      apply: (text) => imager(() => parseCustomToml(text("custom.toml") ?? "")),
    },
    {
      format: "piclaw.txt",
      files: ["piclaw.txt"],
      leftToOs: false,
      apply: (text) => ({
        applied: applyPiclawTxt(parsePiclawTxt(text("piclaw.txt") ?? ""), o, o.sys),
        ignored: [],
      }),
    },
  ];
  const previous = readBootStatus(`${o.stateDir}/status.json`);
  const sources: BootSource[] = [];
  for (const c of candidates) {
    const present = c.files.filter((f) => existsSync(o.sys.path(`${o.bootDir}/${f}`)));
    if (present.length === 0) continue;
    const file = present.join(", ");
    const base = { file, format: c.format, applied: [], ignored: [], errors: [] };
    if (c.leftToOs) {
      o.log(
        `${file}: applied by the OS itself (${c.format === "cloud-init" ? "cloud-init" : "raspberrypi-sys-mods"})`,
      );
      sources.push({ ...base, state: "left-to-os" });
      continue;
    }
    const texts = new Map(present.map((f) => [f, readFileSync(o.sys.path(`${o.bootDir}/${f}`), "utf8")]));
    const hash = createHash("sha256")
      .update(JSON.stringify([...texts.entries()]))
      .digest("hex");
    const hashFile = `${o.stateDir}/${c.format}.sha256`;
    if (existsSync(hashFile) && readFileSync(hashFile, "utf8").trim() === hash) {
      const before = previous?.sources.find((s) => s.format === c.format && s.state !== "rejected");
      sources.push({ ...base, ...(before ?? {}), state: "unchanged" });
      continue;
    }
    try {
      const result = c.apply((name) => texts.get(name) ?? null);
      for (const line of result.applied) o.log(`${file}: applied ${line}`);
      for (const line of result.ignored) o.log(`${file}: not applied: ${line}`);
      writeFileAtomic(hashFile, `${hash}\n`, { mode: 0o600 });
      sources.push({ ...base, state: "applied", applied: result.applied, ignored: result.ignored });
    } catch (err) {
      const message = errorMessage(err);
      o.log(
        `error: ${file}: ${message} — nothing from this file was applied; fix it on the boot partition and reboot`,
      );
      sources.push({ ...base, state: "rejected", errors: [message] });
    }
  }
  const status: BootStatus = { version: 1, updatedAt: o.now().toISOString(), sources };
  writeJsonAtomic(`${o.stateDir}/status.json`, status, { mode: 0o644 });
  return status;
}

/** The real machine. */
const hostSystem: BootSystem = {
  path: (p) => p,
  run: (cmd, args) => {
    execFileSync(cmd, args, { stdio: ["ignore", "inherit", "inherit"] });
  },
  user: (name) => {
    const line = readFileSync("/etc/passwd", "utf8")
      .split("\n")
      .find((l) => l.startsWith(`${name}:`));
    if (!line) return null;
    const f = line.split(":");
    return { uid: Number(f[2]), gid: Number(f[3]), home: f[5] ?? "/" };
  },
  chown: chownSync,
};

function main(argv: string[]): number {
  const arg = (name: string, fallback: string): string => {
    const at = argv.indexOf(name);
    return (at >= 0 ? argv[at + 1] : undefined) ?? fallback;
  };
  const stateDir = arg("--state", "/var/lib/piclaw-boot");
  const status = runBootSettings({
    bootDir: arg("--boot", "/boot/firmware"),
    stateDir,
    configPath: arg("--config", "/etc/piclaw/config.yaml"),
    profilesDir: "/opt/piclaw/calibration/profiles",
    passcodePath: "/var/lib/piclaw/phone-passcode",
    sys: hostSystem,
    now: () => new Date(),
    log: (line) => process.stdout.write(`piclaw-boot-settings: ${line}\n`),
  });
  const rejected = status.sources.filter((s) => s.state === "rejected").length;
  process.stdout.write(
    `piclaw-boot-settings: ${status.sources.length} settings file(s), ${rejected} rejected (status: ${stateDir}/status.json)\n`,
  );
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
