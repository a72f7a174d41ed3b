import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, readlinkSync, rmSync } from "node:fs";
import { PiclawError } from "../../util/errors.js";
import { sleep } from "../../util/sleep.js";

/**
 * A connected pair of pseudo-terminals: bytes written to one end's device come out of the other's, as
 * over a USB serial cable. The simulated GRBL board listens on one end; the real serial driver opens
 * the other like `/dev/ttyUSB0`. Made by `socat` where installed, else by a small python3 relay (python3
 * is on every machine this project targets), so `npm test` needs no extra package.
 */
export interface PtyPair {
  /** Device paths of the two ends (e.g. /dev/pts/5 and /dev/pts/6). */
  readonly a: string;
  readonly b: string;
  readonly via: "socat" | "python3";
  /** The relay process: killing it makes both ends vanish (a pulled USB cable). */
  readonly process: ChildProcess;
  close(): Promise<void>;
}

/** How long the relay may take to announce its two ptys (a bound, not an expectation: it is ~0.1 s idle). */
const PTY_START_MS = 20_000;

/**
 * Relays bytes between two raw ptys; exits when its stdin closes, so it never outlives its parent.
 * argv[1], argv[2]: optional symlink paths for the two ends (socat's `link=`), removed on exit.
 */
const PYTHON_RELAY = `
import os, pty, select, sys, tty
m1, s1 = pty.openpty()
m2, s2 = pty.openpty()
tty.setraw(s1); tty.setraw(s2)
links = [l for l in sys.argv[1:3] if l]
for link, slave in zip(sys.argv[1:3], (s1, s2)):
    if link:
        if os.path.lexists(link): os.unlink(link)
        os.symlink(os.ttyname(slave), link)
sys.stdout.write(os.ttyname(s1) + "\\n" + os.ttyname(s2) + "\\n"); sys.stdout.flush()
pair = {m1: m2, m2: m1}
stdin = sys.stdin.fileno()
while True:
    ready, _, _ = select.select([m1, m2, stdin], [], [])
    if stdin in ready and not os.read(stdin, 1024):
        break
    for fd in ready:
        if fd == stdin:
            continue
        try:
            data = os.read(fd, 4096)
        except OSError:
            continue
        if data:
            os.write(pair[fd], data)
for link in links:
    try: os.unlink(link)
    except OSError: pass
`;

export function hasSocat(): boolean {
  return spawnSync("socat", ["-V"], { stdio: "ignore" }).status === 0;
}

export interface PtyPairOptions {
  /** Force one way (tests cover both); default: socat when installed. */
  prefer?: "socat" | "python3";
  /** Symlinks to create for the ends (stable names, like /dev/serial/by-id), removed on close. */
  linkA?: string;
  linkB?: string;
}

/**
 * socat under a tiny shell that ends it when its stdin closes — when this process exits, however it
 * dies (kill -9 included) — as the python3 relay does by itself.
 */
const SOCAT_UNTIL_STDIN_CLOSES = 'socat "$@" </dev/null & s=$!; cat >/dev/null; kill $s 2>/dev/null; wait $s';

/**
 * Open a pty pair. The relay runs in its own process group (`detached`): a Ctrl-C on the terminal
 * signals the whole foreground group, and the cable must stay up until shutdown has lifted and parked
 * the stylus. It still never outlives this process: it exits when its stdin (our pipe) closes.
 */
export async function openPtyPair(options: PtyPairOptions = {}): Promise<PtyPair> {
  const via = options.prefer ?? (hasSocat() ? "socat" : "python3");
  const end = (link: string | undefined) => `pty,raw,echo=0${link ? `,link=${link}` : ""}`;
  const child =
    via === "socat"
      ? spawn(
          "sh",
          ["-c", SOCAT_UNTIL_STDIN_CLOSES, "sh", "-d", "-d", end(options.linkA), end(options.linkB)],
          { stdio: ["pipe", "ignore", "pipe"], detached: true },
        )
      : spawn("python3", ["-c", PYTHON_RELAY, options.linkA ?? "", options.linkB ?? ""], {
          stdio: ["pipe", "pipe", "pipe"],
          detached: true,
        });
  // Never outlive this process: a relay left behind would hold the ptys open.
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal); // the shell and socat alike
    } catch {
      // already gone
    }
  };
  const killOnExit = () => killGroup("SIGKILL");
  process.once("exit", killOnExit);
  const paths = await new Promise<string[]>((resolve, reject) => {
    const found: string[] = [];
    let text = "";
    const stream = via === "socat" ? child.stderr : child.stdout;
    const pattern = via === "socat" ? /PTY is (\/dev\/\S+)/g : /^(\/dev\/\S+)$/gm;
    // Python's start alone took over 5 s with the test suite running at load 22–26 on 2 cores.
    const timer = setTimeout(
      () => reject(new PiclawError("SIM_PTY_FAILED", `${via} gave no pty within ${PTY_START_MS / 1000} s`)),
      PTY_START_MS,
    );
    stream?.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      found.length = 0;
      for (const m of text.matchAll(pattern)) if (m[1]) found.push(m[1]);
      if (found.length >= 2) {
        clearTimeout(timer);
        resolve(found.slice(0, 2));
      }
    });
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(new PiclawError("SIM_PTY_FAILED", `cannot start ${via}: ${err.message}`));
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(
        new PiclawError("SIM_PTY_FAILED", `${via} exited (${code}) before opening the ptys: ${text.trim()}`),
      );
    });
  }).catch((err: unknown) => {
    process.off("exit", killOnExit);
    killGroup("SIGKILL");
    throw err;
  });
  const [a, b] = paths as [string, string];
  // socat announces the ptys before it makes the symlinks: wait for them so callers can open by name.
  for (const link of [options.linkA, options.linkB]) {
    for (let i = 0; link && !existsSync(link) && i < 100; i++) await sleep(10);
  }
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  return {
    a,
    b,
    via,
    process: child,
    async close(): Promise<void> {
      process.off("exit", killOnExit);
      child.stdin?.end();
      killGroup("SIGTERM");
      await exited;
      // The wrapper shell can exit before socat has unlinked its symlinks (seen under load): the
      // contract says the links are gone after close, so remove those still pointing at our ptys.
      for (const [link, target] of [
        [options.linkA, a],
        [options.linkB, b],
      ] as const) {
        if (!link) continue;
        try {
          if (readlinkSync(link) === target) rmSync(link, { force: true });
        } catch {
          // already removed (or never made)
        }
      }
    },
  };
}
