import { mkdtempSync, rmSync } from "node:fs";
import { type IncomingHttpHeaders, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import type { JobView } from "../../src/agent/ports.js";
import { parseConfig } from "../../src/app/config/load.js";
import type { PiclawConfig } from "../../src/app/config/schema.js";
import { BUNDLE_VERSION, type CalibrationBundle } from "../../src/calibration/bundle.js";
import { HttpService } from "../../src/http/server.js";
import { Logger } from "../../src/log/logger.js";
import type { McpConfig } from "../../src/mcp/config.js";
import { TokenStore } from "../../src/mcp/tokens.js";
import { phoneOwnerConfigSchema } from "../../src/rig/config.js";
import type { MotionStatus } from "../../src/rig/motion.js";
import { PhoneOwner } from "../../src/rig/owner.js";
import { fitHomography, type Mat3, mat3Mul } from "../../src/shared/homography.js";
import { glassFrame, glassToBed } from "../../src/sim/pose.js";
import { SimRig } from "../../src/sim/rig.js";
import { type Clock, systemClock } from "../../src/util/clock.js";
import { PiclawError } from "../../src/util/errors.js";
import type { DashboardConfig } from "../../src/web/config.js";
import { Dashboard } from "../../src/web/dashboard.js";
import type { DashboardArm, DashboardSession, DashboardSources } from "../../src/web/sources.js";

/** A fake arm that records what was asked of it and whether the caller held the owner's lease. */
export class FakeArm implements DashboardArm {
  readonly calls: Array<{ call: string; heldBy: string | null }> = [];
  estopLatched = false;
  readonly allowedArea = { minXMm: 60, minYMm: 30, maxXMm: 140, maxYMm: 170 };
  readonly travelMm = { x: 200, y: 200 };
  position = { xMm: 120, yMm: 80 };

  constructor(private readonly owner: PhoneOwner) {}

  async status(): Promise<MotionStatus> {
    return { state: "idle", position: { ...this.position }, stylusDown: false, referenced: true };
  }
  async park(): Promise<void> {
    this.record("park");
    this.position = { xMm: 10, yMm: 190 };
  }
  async estop(): Promise<void> {
    this.record("estop");
    this.estopLatched = true;
  }
  resetEstop(): void {
    this.record("resetEstop");
    this.estopLatched = false;
  }
  async reference(): Promise<void> {
    this.record("reference");
  }
  async confirmParked(): Promise<void> {
    this.record("confirmParked");
    this.estopLatched = false;
  }
  private record(call: string): void {
    this.calls.push({ call, heldBy: this.owner.heldBy });
  }
}

/** A small JPEG whose colour changes with `n` (a new view per look). */
export async function viewJpeg(n: number): Promise<Buffer> {
  return sharp({
    create: { width: 60, height: 130, channels: 3, background: { r: (n * 70) % 256, g: 90, b: 160 } },
  })
    .jpeg()
    .toBuffer();
}

export interface FakeDashboard {
  url: string;
  owner: PhoneOwner;
  arm: FakeArm;
  tokens: TokenStore;
  looks: number;
  logLines: string[];
  stop(): Promise<void>;
}

export async function startFakeDashboard(
  options: {
    bindHost?: string;
    mcp?: Partial<McpConfig>;
    dashboard?: Partial<DashboardConfig>;
    jobs?: JobView[];
    sessions?: DashboardSession[];
    calibration?: CalibrationBundle | null;
    clock?: Clock;
    /** Optional sources (the daemon's readiness, its calibrator). */
    sources?: Partial<Pick<DashboardSources, "readiness" | "calibrator" | "calibration" | "rig">>;
  } = {},
): Promise<FakeDashboard> {
  const logLines: string[] = [];
  const log = Logger.create({
    level: "debug",
    format: "json",
    sink: { write: (l) => logLines.push(l) },
    now: () => Date.now(),
  });
  const dir = mkdtempSync(join(tmpdir(), "piclaw-web-"));
  const clock = options.clock ?? systemClock;
  const tokens = new TokenStore(join(dir, "tokens.json"), clock);
  const owner = new PhoneOwner(phoneOwnerConfigSchema.parse({}), clock);
  const arm = new FakeArm(owner);
  const config = parseConfig({
    mcp: options.mcp ?? {},
    dashboard: { frameRefreshMs: 0, ...options.dashboard },
  });
  const state = { looks: 0 };
  const sources: DashboardSources = {
    owner,
    arm,
    calibration: async () => options.calibration ?? null,
    look: async () => {
      state.looks++;
      if (arm.estopLatched) throw new PiclawError("CAMERA_GONE", "the camera is gone");
      return {
        jpeg: await viewJpeg(state.looks),
        listing: `1 [text] "Look ${state.looks}" [0.1,0.1,0.5,0.2] 0.99`,
      };
    },
    jobs: async () => options.jobs ?? [],
    sessions: async (limit) => (options.sessions ?? []).slice(0, limit),
    sessionImage: async (id, name) =>
      (options.sessions ?? []).some((s) => s.id === id && s.images.includes(name))
        ? { contentType: "image/jpeg", body: await viewJpeg(7) }
        : null,
    ...options.sources,
  };
  const bindHost = options.bindHost ?? "127.0.0.1";
  const dashboard = new Dashboard({
    config: config.dashboard,
    sources,
    auth: { bindHost, mcp: config.mcp, tokens, localNames: ["piclaw-test.local"] },
    clock,
    log: log.child("dashboard"),
  });
  await dashboard.start();
  const http = new HttpService({}, log.child("http"), dashboard.routes());
  // Off loopback in the test still listens on loopback only: the access rules follow `bindHost`.
  const url = await http.start({ host: "127.0.0.1", port: 0 });
  return {
    url,
    owner,
    arm,
    tokens,
    get looks() {
      return state.looks;
    },
    logLines,
    stop: async () => {
      await dashboard.stop();
      await http.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface RawReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/** One HTTP exchange with full control of the headers (Host and Origin included). */
export function raw(
  url: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      { method: options.method ?? "GET", headers: options.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString("utf8") });
        });
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** A POST from the page itself: the action header and the page's own Origin. */
export function action(url: string, path: string, headers: Record<string, string> = {}): Promise<RawReply> {
  return raw(url, path, { method: "POST", headers: { "x-piclaw-dashboard": "1", origin: url, ...headers } });
}

/**
 * The bundle a perfect calibration of the simulated rig in `config` would write, from the simulator's
 * true optics and phone pose: lets a daemon test skip the ~20–40 s start-up calibration (a calibrated
 * appliance starts this way). Calibration itself is tested in test/calibration.
 */
export async function truthBundle(config: PiclawConfig, log: Logger): Promise<CalibrationBundle> {
  const rig = SimRig.fromConfig(config, { clock: systemClock, log, cwd: process.cwd() });
  await rig.start();
  try {
    const { width, height } = config.camera;
    const glass = rig.phone.geometry.glassMm;
    const scale: Mat3 = [glass.width, 0, 0, 0, glass.height, 0, 0, 0, 1];
    const screenToCamera = mat3Mul(rig.camera.view(width, height).glassToPixel, scale);
    const frame = glassFrame(rig.phone.geometry, config.sim.pose);
    const bed = (x: number, y: number) => glassToBed(frame, x * glass.width, y * glass.height);
    const grid = [0, 0.25, 0.5, 0.75, 1].flatMap((x) => [0, 0.25, 0.5, 0.75, 1].map((y) => ({ x, y })));
    const screenToBed = fitHomography(grid.map((p) => ({ from: p, to: bed(p.x, p.y) })));
    const corners = [bed(0, 0), bed(1, 0), bed(0, 1), bed(1, 1)];
    const margin = 5;
    const zero = { rmsPx: 0, maxPx: 0, rmsMm: 0, maxMm: 0 };
    return {
      version: BUNDLE_VERSION,
      createdAt: new Date().toISOString(),
      rigProfile: rig.profile.name,
      phone: { model: rig.phone.geometry.name, glassMm: { ...glass } },
      camera: {
        width,
        height,
        screenToCamera,
        markers: { expected: 25, found: 25, inliers: 25 },
        reprojection: zero,
      },
      arm: {
        screenToBed,
        pairs: grid.length,
        inliers: grid.length,
        residual: { rmsMm: 0, maxMm: 0 },
        allowedArea: {
          minXMm: Math.min(...corners.map((c) => c.x)) - margin,
          minYMm: Math.min(...corners.map((c) => c.y)) - margin,
          maxXMm: Math.max(...corners.map((c) => c.x)) + margin,
          maxYMm: Math.max(...corners.map((c) => c.y)) + margin,
        },
      },
      validation: { passed: true, thresholdMm: 1, taps: [], maxErrorMm: 0.02 },
    };
  } finally {
    await rig.stop();
  }
}
