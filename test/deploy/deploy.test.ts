import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

/**
 * deploy/deploy.sh against a local target: the remote-command runner (PICLAW_DEPLOY_SSH) is a plain
 * `sh -c` with PICLAW_ROOT pointing at a scratch "Pi" and stub systemctl/useradd/npm/… on PATH that
 * keep their state in that scratch tree. Idempotence is proven by a byte/mode/mtime snapshot of the
 * whole tree and by the absence of mutating stub calls on the second run.
 */

const repo = join(import.meta.dirname, "..", "..");
const deployScript = join(repo, "deploy", "deploy.sh");
const stubs = join(import.meta.dirname, "stubs");
const run = promisify(execFile);

let dir: string;
let root: string;
let app: string;
let stubLog: string;

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "piclaw-deploy-"));
  root = join(dir, "pi");
  app = join(dir, "app");
  stubLog = join(dir, "stub.log");
  write(join(root, "proc/device-tree/model"), "Raspberry Pi 4 Model B Rev 1.5\0");
  write(join(root, "etc/os-release"), 'PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nID=debian\n');
  write(join(root, "boot/firmware/config.txt"), "[all]\ndtparam=audio=on\n");
  write(join(root, "etc/group"), "root:x:0:\nvideo:x:44:pi\ndialout:x:20:\n");
  write(join(root, "etc/passwd"), "root:x:0:0:root:/root:/bin/sh\n");
  mkdirSync(join(root, "opt"), { recursive: true });
  // A staged app (what image-build/lib/app.sh --no-deps makes), small enough for a unit test.
  write(join(app, "package.json"), '{"name":"piclaw","version":"0.0.0-test"}\n');
  write(join(app, "package-lock.json"), '{"lockfileVersion":3,"packages":{}}\n');
  write(join(app, "bin/piclaw.js"), "#!/usr/bin/env node\n");
  mkdirSync(join(app, "systemd"));
  copyFileSync(join(repo, "systemd/piclaw.service"), join(app, "systemd/piclaw.service"));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function deploy(...args: string[]): Promise<{ stdout: string; calls: string[] }> {
  writeFileSync(stubLog, "");
  const runner = `env PICLAW_ROOT=${root} STUB_LOG=${stubLog} PATH=${stubs}:${process.env.PATH} sh -c`;
  const { stdout } = await run("bash", [deployScript, "--app", app, ...args], {
    env: { ...process.env, PICLAW_DEPLOY_SSH: runner },
  });
  return { stdout, calls: readFileSync(stubLog, "utf8").split("\n").filter(Boolean) };
}

/** Every entry under the scratch root: path, type, mode, mtime and content hash (or link target). */
function snapshot(base: string): string[] {
  const rows: string[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(base, rel)).sort()) {
      const path = join(rel, name);
      const st = lstatSync(join(base, path));
      if (st.isDirectory()) {
        rows.push(`d ${path} ${st.mode.toString(8)}`);
        walk(path);
      } else if (st.isSymbolicLink()) {
        rows.push(`l ${path} -> ${readlinkSync(join(base, path))}`);
      } else {
        const hash = createHash("sha256")
          .update(readFileSync(join(base, path)))
          .digest("hex");
        rows.push(`f ${path} ${st.mode.toString(8)} ${st.mtimeMs} ${hash}`);
      }
    }
  };
  walk("");
  return rows;
}

const MUTATING = /^(systemctl (daemon-reload|enable|start|restart)|useradd|groupadd|usermod|npm ci|chown)/;
const BLOCK_BEGIN = "# >>> piclaw (managed by deploy.sh; edits inside are replaced) >>>";

describe("deploy.sh against a local target", { timeout: 120_000 }, () => {
  it("installs everything on the first run", async () => {
    const { stdout, calls } = await deploy();
    expect(stdout).toMatch(/^\d+ changes$/m);
    expect(stdout).toContain("piclaw.service: active");
    expect(readFileSync(join(root, "opt/piclaw/bin/piclaw.js"), "utf8")).toBe("#!/usr/bin/env node\n");
    expect(readFileSync(join(root, "opt/piclaw/node_modules/.npm-ci-stub"), "utf8")).toBe("stub\n");
    expect(readFileSync(join(root, "etc/systemd/system/piclaw.service"), "utf8")).toBe(
      readFileSync(join(repo, "systemd/piclaw.service"), "utf8"),
    );
    expect(readFileSync(join(root, "etc/piclaw/config.yaml"), "utf8")).toContain("profile: corexy-fluidnc");
    expect(readFileSync(join(root, "usr/local/bin/piclaw"), "utf8")).toContain("/opt/piclaw/bin/piclaw.js");
    const group = readFileSync(join(root, "etc/group"), "utf8");
    expect(group).toMatch(/^gpio:x:\d+:piclaw$/m);
    expect(group).toMatch(/^video:x:44:pi,piclaw$/m);
    expect(group).toMatch(/^dialout:x:20:piclaw$/m);
    expect(readFileSync(join(root, "etc/passwd"), "utf8")).toMatch(/^piclaw:.*:\/usr\/sbin\/nologin$/m);
    const configTxt = readFileSync(join(root, "boot/firmware/config.txt"), "utf8");
    expect(configTxt.startsWith("[all]\ndtparam=audio=on\n")).toBe(true);
    expect(configTxt).toContain(`${BLOCK_BEGIN}\n# Camera Module`);
    expect(configTxt).toContain("camera_auto_detect=1\n# <<< piclaw <<<\n");
    expect(calls).toContain("systemctl daemon-reload");
    expect(calls).toContain("systemctl enable --quiet piclaw");
    expect(calls).toContain("systemctl restart piclaw");
  });

  it("changes nothing on the second run and says so", async () => {
    await deploy();
    const before = snapshot(root);
    const { stdout, calls } = await deploy();
    expect(stdout).toMatch(/^no changes$/m);
    expect(calls.filter((c) => MUTATING.test(c))).toEqual([]);
    expect(snapshot(root)).toEqual(before);
  });

  it("updates a changed app, keeps node_modules when the lockfile is the same, restarts", async () => {
    await deploy();
    write(join(app, "bin/piclaw.js"), "#!/usr/bin/env node\n// v2\n");
    const { stdout, calls } = await deploy();
    expect(stdout).toMatch(/^\d+ changes$/m);
    expect(readFileSync(join(root, "opt/piclaw/bin/piclaw.js"), "utf8")).toContain("v2");
    expect(readFileSync(join(root, "opt/piclaw/node_modules/.npm-ci-stub"), "utf8")).toBe("stub\n");
    expect(calls.some((c) => c.startsWith("npm ci"))).toBe(false);
    expect(calls).toContain("systemctl restart piclaw");
    expect(readdirSync(join(root, "opt")).sort()).toEqual(["piclaw"]);
  });

  it("replaces its config.txt block for another profile and never touches an edited config", async () => {
    await deploy();
    writeFileSync(join(root, "etc/piclaw/config.yaml"), "log:\n  level: debug\n");
    await deploy("--profile", "cartesian-gpio");
    const configTxt = readFileSync(join(root, "boot/firmware/config.txt"), "utf8");
    expect(configTxt.split(BLOCK_BEGIN).length - 1).toBe(1);
    expect(configTxt).toContain("dtoverlay=pwm,pin=18,func=2\n# <<< piclaw <<<\n");
    expect(readFileSync(join(root, "etc/piclaw/config.yaml"), "utf8")).toBe("log:\n  level: debug\n");
    const again = await deploy("--profile", "cartesian-gpio");
    expect(again.stdout).toMatch(/^no changes$/m);
  });

  it("refuses a target whose Node.js is older than 20", async () => {
    const oldNode = join(dir, "old-node");
    write(join(oldNode, "node"), "#!/bin/sh\necho v18.19.0\n");
    const { chmodSync } = await import("node:fs");
    chmodSync(join(oldNode, "node"), 0o755);
    const runner = `env PICLAW_ROOT=${root} STUB_LOG=${stubLog} PATH=${oldNode}:${stubs}:${process.env.PATH} sh -c`;
    await expect(
      run("bash", [deployScript, "--app", app], { env: { ...process.env, PICLAW_DEPLOY_SSH: runner } }),
    ).rejects.toMatchObject({ stderr: expect.stringContaining("needs ≥ 20") });
    expect(readdirSync(join(root, "opt"))).toEqual([]);
  });
});
