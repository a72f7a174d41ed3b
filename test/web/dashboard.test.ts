import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import type { CalibrationBundle } from "../../src/calibration/bundle.js";
import { PiclawError } from "../../src/util/errors.js";
import type { DashboardStatus } from "../../src/web/status.js";
import { action, type FakeDashboard, raw, startFakeDashboard } from "./helpers.js";

/**
 * The dashboard over a real HttpService with fake sources: what it serves, how actions reach the arm
 * (through the owner), and the access rules on and off loopback. The browser test drives the page.
 */

let started: FakeDashboard | null = null;
afterEach(async () => {
  await started?.stop();
  started = null;
});

const status = async (url: string, headers: Record<string, string> = {}): Promise<DashboardStatus> => {
  const reply = await raw(url, "/dashboard/status.json", { headers });
  expect(reply.status).toBe(200);
  return JSON.parse(reply.text) as DashboardStatus;
};

describe("dashboard on a loopback bind", () => {
  it("serves the page, its status and a view on peek, without taking the arm", async () => {
    started = await startFakeDashboard();
    const { url } = started;
    const page = await raw(url, "/");
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(page.text).toContain('<img id="frame"');
    expect((await raw(url, "/dashboard/app.js")).text).toContain("/dashboard/status.json");

    const before = await status(url);
    expect(before.frame).toBeNull();
    expect(before.arm).toMatchObject({ state: "idle", position: { xMm: 120, yMm: 80 }, estopLatched: false });
    expect(before.owner).toEqual({ holder: null, waiting: [] });
    expect(before.calibration).toEqual({ present: false, error: null });
    expect((await raw(url, "/dashboard/frame.jpg")).status).toBe(404);

    // Peek while someone else holds the arm: a view does not wait for it.
    const lease = await started.owner.acquire({ priority: "remote", label: "mcp:laptop" });
    const peek = await action(url, "/dashboard/peek");
    expect(peek.status).toBe(200);
    expect(JSON.parse(peek.text)).toMatchObject({ ok: true, frame: { id: 1 } });
    lease.release();
    const frame = await raw(url, "/dashboard/frame.jpg");
    expect(frame.headers["x-frame-id"]).toBe("1");
    expect(await sharp(frame.body).metadata()).toMatchObject({ format: "jpeg", width: 60, height: 130 });
    const after = await status(url);
    expect(after.frame).toMatchObject({ id: 1, listing: expect.stringContaining('"Look 1"') });
    expect(started.arm.calls).toEqual([]);
  });

  it("Calibrate starts the daemon's calibration once; the banner and the last run come with the status", async () => {
    started = await startFakeDashboard();
    expect(await status(started.url)).toMatchObject({ readiness: null, calibrationRuns: null });
    const unavailable = await action(started.url, "/dashboard/calibrate");
    expect(unavailable.status).toBe(409);
    expect(JSON.parse(unavailable.text)).toMatchObject({ error: { code: "CALIBRATION_UNAVAILABLE" } });
    await started.stop();

    const asked: string[] = [];
    let running: string | null = null;
    started = await startFakeDashboard({
      sources: {
        readiness: () => ({ state: "calibrating", detail: "grid 3/24", since: 0 }),
        calibrator: {
          start: (by) => {
            if (running) throw new PiclawError("CALIBRATION_RUNNING", `asked by ${running}`);
            asked.push(by);
            running = by;
          },
          status: () => ({ running, last: null }),
        },
      },
    });
    const { url } = started;
    expect((await raw(url, "/dashboard/calibrate", { method: "POST" })).status).toBe(403);
    const first = await action(url, "/dashboard/calibrate");
    expect(first.status).toBe(200);
    expect(JSON.parse(first.text)).toMatchObject({
      ok: true,
      message: expect.stringContaining("calibrating"),
    });
    const second = await action(url, "/dashboard/calibrate");
    expect(second.status).toBe(409);
    expect(JSON.parse(second.text)).toMatchObject({ ok: false, error: { code: "CALIBRATION_RUNNING" } });
    expect(asked).toEqual(["dashboard:local"]);
    expect(await status(url)).toMatchObject({
      readiness: { state: "calibrating", detail: "grid 3/24" },
      calibrationRuns: { running: "dashboard:local", last: null },
    });
    // The page has the button and the banner.
    const page = (await raw(url, "/")).text;
    expect(page).toContain('id="calibrate"');
    expect(page).toContain('id="readiness"');
  });

  it("a new calibration in use makes the dashboard look again at once, not after frameRefreshMs", async () => {
    let bundle: CalibrationBundle | null = null;
    started = await startFakeDashboard({
      dashboard: { frameRefreshMs: 3_600_000 },
      sources: { calibration: async () => bundle },
    });
    const { url } = started;
    const frameId = async (want: number) => {
      for (let i = 0; i < 100; i++) {
        const s = await status(url);
        if (s.frame?.id === want) return s;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`no frame ${want}`);
    };
    await frameId(1); // the first watcher's look
    expect((await status(url)).frame?.id).toBe(1); // no second look within the hour…
    bundle = {
      createdAt: "2026-11-25T12:00:00.000Z",
      rigProfile: "corexy-fluidnc",
      phone: { model: "iphone-61", glassMm: { width: 64, height: 139 } },
      camera: { reprojection: { maxMm: 0.01 } },
      arm: { residual: { rmsMm: 0.02 } },
      validation: { passed: true, thresholdMm: 1, maxErrorMm: 0.03 },
    } as unknown as CalibrationBundle;
    const after = await frameId(2); // …until the calibration in use changed
    expect(after.calibration).toMatchObject({ present: true, createdAt: "2026-11-25T12:00:00.000Z" });
  });

  it("parks only under the owner's lease: a held arm makes Park wait in line, visibly", async () => {
    started = await startFakeDashboard();
    const { url, owner, arm } = started;
    const lease = await owner.acquire({ priority: "remote", label: "mcp:laptop" });
    const parking = action(url, "/dashboard/park");
    await expect
      .poll(async () => (await status(url)).owner.waiting.map((w) => w.label))
      .toEqual(["dashboard:park"]);
    const seen = await status(url);
    expect(seen.owner.holder).toMatchObject({ label: "mcp:laptop", priority: "remote" });
    expect(arm.calls).toEqual([]); // nothing moved while the gesture holds the arm
    lease.release();
    const reply = await parking;
    expect(reply.status).toBe(200);
    expect(arm.calls).toEqual([{ call: "park", heldBy: "dashboard:park" }]);
    expect((await status(url)).owner).toEqual({ holder: null, waiting: [] });
  });

  it("latches an e-stop at once, and resets it (with a fresh reference) under a lease", async () => {
    started = await startFakeDashboard();
    const { url, owner, arm } = started;
    const lease = await owner.acquire({ priority: "remote", label: "mcp:laptop" });
    expect((await action(url, "/dashboard/estop")).status).toBe(200);
    expect(arm.calls).toEqual([{ call: "estop", heldBy: "mcp:laptop" }]);
    expect((await status(url)).arm.estopLatched).toBe(true);
    const resetting = action(url, "/dashboard/estop-reset");
    await expect.poll(async () => (await status(url)).owner.waiting.length).toBe(1);
    lease.release();
    expect((await resetting).status).toBe(200);
    expect(arm.calls.slice(1)).toEqual([
      { call: "resetEstop", heldBy: "dashboard:e-stop reset" },
      { call: "reference", heldBy: "dashboard:e-stop reset" },
    ]);
  });

  it("'Carriage at park' confirms under a lease (it also clears a latched e-stop)", async () => {
    started = await startFakeDashboard();
    const { url, owner, arm } = started;
    expect((await action(url, "/dashboard/estop")).status).toBe(200);
    const lease = await owner.acquire({ priority: "remote", label: "mcp:laptop" });
    const confirming = action(url, "/dashboard/confirm-parked");
    await expect.poll(async () => (await status(url)).owner.waiting.length).toBe(1);
    expect(arm.calls.map((c) => c.call)).toEqual(["estop"]); // waits for the holder
    lease.release();
    const reply = await confirming;
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text).message).toContain("confirmed at the park spot");
    expect(arm.calls.slice(1)).toEqual([{ call: "confirmParked", heldBy: "dashboard:confirm parked" }]);
    expect((await status(url)).arm.estopLatched).toBe(false);
    expect((await raw(url, "/dashboard/confirm-parked", { method: "POST" })).status).toBe(403);
  });

  it("refuses actions without the page's header or from another origin, and GET on actions", async () => {
    started = await startFakeDashboard();
    const { url, arm } = started;
    expect((await raw(url, "/dashboard/park", { method: "POST" })).status).toBe(403);
    expect((await action(url, "/dashboard/park", { origin: "http://evil.example.com" })).status).toBe(403);
    // A page on another port of this machine is another origin too.
    expect((await action(url, "/dashboard/park", { origin: "http://127.0.0.1:1" })).status).toBe(403);
    expect((await raw(url, "/dashboard/park")).status).toBe(405);
    expect((await raw(url, "/", { headers: { host: "evil.example.com" } })).status).toBe(403);
    expect(arm.calls).toEqual([]);
  });

  it("reports a failed look and keeps the last good view", async () => {
    started = await startFakeDashboard();
    const { url, arm } = started;
    await action(url, "/dashboard/peek");
    arm.estopLatched = true; // the fake's look fails meanwhile
    const failed = await action(url, "/dashboard/peek");
    expect(failed.status).toBe(409);
    expect(JSON.parse(failed.text).error.message).toContain("the camera is gone");
    const s = await status(url);
    expect(s.frame?.id).toBe(1);
    expect(s.frameError).toContain("the camera is gone");
  });

  it("lists jobs with next fire times and sessions with notes and images", async () => {
    started = await startFakeDashboard({
      jobs: [
        {
          id: "water-plants",
          description: "Remind me to water the plants",
          type: "periodic",
          schedule: "0 9 * * *",
          status: "pending",
          context: "",
          createTime: "2026-11-01T08:00:00.000Z",
          nextFireTime: "2026-11-24T09:00:00.000Z",
          lastFireTime: null,
          executionTime: null,
          executionResult: null,
        },
      ],
      sessions: [
        {
          id: "s-2",
          startedAt: "2026-11-23T17:00:00.000Z",
          endedAt: "2026-11-23T17:02:00.000Z",
          status: "DONE",
          recap: "Sent the message",
          notes: ["open Messages", "type the text"],
          images: ["turn-1.jpg"],
        },
      ],
    });
    const { url } = started;
    const s = await status(url);
    expect(s.jobs.items[0]).toMatchObject({ id: "water-plants", nextFireTime: "2026-11-24T09:00:00.000Z" });
    expect(s.sessions.items[0]).toMatchObject({ id: "s-2", notes: ["open Messages", "type the text"] });
    const imageUrl = s.sessions.items[0]?.imageUrls[0] ?? "";
    const image = await raw(url, imageUrl);
    expect(image.status).toBe(200);
    expect(image.headers["content-type"]).toBe("image/jpeg");
  });
});

describe("dashboard off loopback", () => {
  it("needs a token: 401 (login form) without one; a login sets an HttpOnly cookie that works until revoked", async () => {
    started = await startFakeDashboard({ bindHost: "0.0.0.0" });
    const { url, tokens } = started;
    const { info, token } = await tokens.create("browser");

    const page = await raw(url, "/");
    expect(page.status).toBe(401);
    expect(page.text).toContain('action="/dashboard/login"');
    expect((await raw(url, "/dashboard/status.json")).status).toBe(401);
    expect((await raw(url, "/dashboard/frame.jpg")).status).toBe(401);
    expect((await action(url, "/dashboard/park")).status).toBe(401);
    expect((await raw(url, "/dashboard/style.css")).status).toBe(200); // the login form's style

    // Scripts may send the token as a bearer header.
    expect(
      (await raw(url, "/dashboard/status.json", { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);

    const form = (t: string, origin = url) =>
      raw(url, "/dashboard/login", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin },
        body: new URLSearchParams({ token: t }).toString(),
      });
    const wrong = await form(`${token.slice(0, -4)}AAAA`);
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain("not accepted");
    expect((await form(token, "http://evil.example.com")).status).toBe(401);

    const ok = await form(token);
    expect(ok.status).toBe(303);
    const setCookie = String(ok.headers["set-cookie"]);
    expect(setCookie).toMatch(
      /^piclaw_dashboard=[A-Za-z0-9_-]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/,
    );
    const cookie = setCookie.split(";")[0] ?? "";
    expect(cookie).not.toContain(token.slice(-43));

    expect((await raw(url, "/", { headers: { cookie } })).status).toBe(200);
    const s = await status(url, { cookie });
    expect(s).toMatchObject({ who: "browser", tokenRequired: true });
    expect((await action(url, "/dashboard/park", { cookie })).status).toBe(200);
    // The cookie alone is not enough for an action from another site.
    expect((await action(url, "/dashboard/park", { cookie, origin: "http://evil.example.com" })).status).toBe(
      403,
    );

    await tokens.revoke(info.id);
    expect((await raw(url, "/dashboard/status.json", { headers: { cookie } })).status).toBe(401);
    expect(started.logLines.join("")).not.toContain(token.slice(-43));
  });

  it("marks the login cookie Secure when X-Forwarded-Proto: https comes from a trusted proxy, not otherwise", async () => {
    const login = async (trustProxy: boolean): Promise<string> => {
      started = await startFakeDashboard({ bindHost: "0.0.0.0", dashboard: { trustProxy } });
      const { token } = await started.tokens.create("browser");
      const reply = await raw(started.url, "/dashboard/login", {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: started.url,
          "x-forwarded-proto": "https",
        },
        body: new URLSearchParams({ token }).toString(),
      });
      expect(reply.status).toBe(303);
      await started.stop();
      started = null;
      return String(reply.headers["set-cookie"]);
    };
    // Off (the default): any client can send the header, so it changes nothing.
    expect(await login(false)).not.toContain("Secure");
    expect(await login(true)).toMatch(/; HttpOnly; SameSite=Strict; Max-Age=\d+; Secure$/);
  });
});

describe("the rig in plain words, and the way to /setup", () => {
  it("the status says which rig moves; the page links to the wizard, or sends the browser there", async () => {
    let rig = { label: "Real rig (GRBL on /dev/ttyUSB0)", simulated: false, setupDone: false };
    started = await startFakeDashboard({ sources: { rig: () => rig } });
    expect((await status(started.url)).rig).toEqual(rig);
    expect((await raw(started.url, "/")).status).toBe(200); // openSetupFirst off: a link only
    expect((await raw(started.url, "/")).text).toContain('href="/setup"');
    await started.stop();

    started = await startFakeDashboard({ sources: { rig: () => rig }, dashboard: { openSetupFirst: true } });
    const sent = await raw(started.url, "/");
    expect(sent.status).toBe(303);
    expect(sent.headers.location).toBe("/setup");
    rig = { ...rig, setupDone: true };
    expect((await raw(started.url, "/")).status).toBe(200);
    await started.stop();

    started = await startFakeDashboard();
    expect((await status(started.url)).rig).toBeNull();
  });
});
