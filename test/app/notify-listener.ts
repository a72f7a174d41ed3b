import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync } from "node:fs";

/**
 * Whether tests that need systemd's `systemd-notify` run: when it is installed, and always in CI (where a
 * missing Debian package `systemd` must fail loudly rather than skip).
 */
export const runSystemdNotifyTests =
  spawnSync("systemd-notify", ["--version"], { stdio: "ignore" }).status === 0 || Boolean(process.env.CI);

/**
 * A real AF_UNIX datagram socket standing in for systemd's notify socket: a python3 child binds `path`,
 * prints one JSON line per datagram (the `KEY=VALUE` lines and the sender's PID from SCM_CREDENTIALS)
 * and, like systemd, closes the fd that comes with `BARRIER=1` (set `closeBarrierFds: false` to act
 * like a plain socket, on which `systemd-notify` waits ~5 s for its barrier).
 */
const LISTENER_PY = String.raw`
import array, json, os, socket, struct, sys
path, close = sys.argv[1], sys.argv[2] == "1"
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
s.bind(path)
print(json.dumps({"listening": path}), flush=True)
kept = []
while True:
    msg, anc, flags, addr = s.recvmsg(65536, socket.CMSG_SPACE(4 * 16) + socket.CMSG_SPACE(12))
    pid, fds = None, []
    for level, kind, data in anc:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            a = array.array("i"); a.frombytes(data[: len(data) - len(data) % 4]); fds.extend(a)
        elif level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
            pid = struct.unpack("iII", data)[0]
    for fd in fds:
        if close: os.close(fd)
        else: kept.append(fd)
    print(json.dumps({"lines": msg.decode().split("\n"), "pid": pid, "fds": len(fds)}), flush=True)
`;

export interface NotifyDatagram {
  lines: string[];
  pid: number | null;
  fds: number;
}

export interface NotifyListener {
  path: string;
  /** Datagrams received so far, barrier messages (`BARRIER=1`) excluded. */
  messages(): NotifyDatagram[];
  /** Every line of every non-barrier datagram, in arrival order. */
  lines(): string[];
  /** Arrival times (Date.now()) of each non-barrier datagram. */
  arrivals(): number[];
  close(): Promise<void>;
}

export async function startNotifyListener(
  path: string,
  options: { closeBarrierFds?: boolean } = {},
): Promise<NotifyListener> {
  const child: ChildProcess = spawn(
    "python3",
    ["-c", LISTENER_PY, path, options.closeBarrierFds === false ? "0" : "1"],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const received: { msg: NotifyDatagram; at: number }[] = [];
  let buffer = "";
  let stderr = "";
  const ready = new Promise<void>((resolve, reject) => {
    child.on("exit", (code) => reject(new Error(`notify listener exited (${code}): ${stderr}`)));
    child.stderr?.on("data", (c: Buffer) => {
      stderr += c.toString("utf8");
    });
    child.stdout?.on("data", (c: Buffer) => {
      buffer += c.toString("utf8");
      let nl = buffer.indexOf("\n");
      while (nl >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const parsed = JSON.parse(line) as Partial<NotifyDatagram> & { listening?: string };
        if (parsed.listening) resolve();
        else if (parsed.lines && !parsed.lines.includes("BARRIER=1"))
          received.push({ msg: parsed as NotifyDatagram, at: Date.now() });
        nl = buffer.indexOf("\n");
      }
    });
  });
  await ready;
  // The daemon under test may run as another user in CI containers; let anyone send, as systemd does.
  chmodSync(path, 0o777);
  return {
    path,
    messages: () => received.map((r) => r.msg),
    lines: () => received.flatMap((r) => r.msg.lines),
    arrivals: () => received.map((r) => r.at),
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
