import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { z } from "zod";
import { readJsonBody } from "../../http/body.js";
import type { RawHandler } from "../../http/server.js";
import type { Logger } from "../../log/logger.js";
import { assetPath } from "../../util/paths.js";
import type { DashboardAuth } from "../../web/auth.js";
import { refusal, send } from "../agent-api.js";
import { problem } from "./board-steps.js";
import type { SetupWizard } from "./wizard.js";

/** The wizard's page, script and step endpoints. */
export const SETUP_PATHS = {
  page: "/setup",
  script: "/setup/app.js",
  state: "/api/setup/state",
  camera: "/api/setup/camera",
  boards: "/api/setup/boards",
  settings: "/api/setup/settings",
  picture: "/api/setup/picture.jpg",
  overlay: "/api/setup/overlay",
  pair: "/api/setup/pair",
  token: "/api/setup/token",
  switchRig: "/api/setup/switch",
  finish: "/api/setup/finish",
} as const;

const settingsBody = z.strictObject({
  profile: z.string().min(1).max(200),
  serialPath: z.string().min(1).max(500),
  apply: z.boolean().default(false),
  parked: z.boolean().default(false),
});
const tokenBody = z.strictObject({ label: z.string().min(1).max(64).default("mcp-host") });
const switchBody = z.strictObject({
  backend: z.enum(["sim", "hardware"]),
  profile: z.string().min(1).max(200).optional(),
  serialPath: z.string().min(1).max(500).optional(),
});

export interface SetupRoutesDeps {
  wizard: SetupWizard;
  auth: DashboardAuth;
  cliToken: string;
  log: Logger;
  assetDir?: string;
}

/**
 * `/setup` and its API. Access is the dashboard's (a login cookie, plus the action header on POSTs;
 * none on loopback). Each step answers 200 `{ok: true, …}` or 409 `{ok: false, error: {code, message,
 * fix}}`; reads are GETs, anything that touches hardware or state is a POST.
 */
export function setupRoutes(deps: SetupRoutesDeps): Record<string, RawHandler> {
  const dir = deps.assetDir ?? assetPath("web");
  const files = Promise.all([readFile(join(dir, "setup.html")), readFile(join(dir, "setup.js"))]);
  const page =
    (which: 0 | 1, type: string): RawHandler =>
    async (req, res) => {
      const denied = refusal(req, "GET", deps);
      // Not logged in: the dashboard's login form, which comes back to `/` (and its link here).
      if (denied) return redirect(res, "/");
      const body = (await files)[which];
      res.writeHead(200, { "content-type": type, "cache-control": "no-store", ...PAGE_HEADERS });
      res.end(body);
    };
  const host = (req: IncomingMessage) => req.headers.host ?? "localhost";
  const { wizard } = deps;
  return {
    [SETUP_PATHS.page]: page(0, "text/html; charset=utf-8"),
    [SETUP_PATHS.script]: page(1, "text/javascript; charset=utf-8"),
    [SETUP_PATHS.state]: get(deps, async (req) => wizard.state(host(req))),
    [SETUP_PATHS.overlay]: get(deps, async () => wizard.overlay()),
    [SETUP_PATHS.picture]: async (req, res) => {
      const denied = refusal(req, "GET", deps);
      if (denied)
        return send(res, denied.status, {
          ok: false,
          error: { code: "UNAUTHORIZED", message: denied.message },
        });
      try {
        const jpeg = await wizard.picture();
        res.writeHead(200, { "content-type": "image/jpeg", "cache-control": "no-store" });
        res.end(jpeg);
      } catch (err) {
        send(res, 409, { ok: false, error: problem(err) });
      }
    },
    [SETUP_PATHS.camera]: post(deps, async () => wizard.camera()),
    [SETUP_PATHS.boards]: post(deps, async () => ({ boards: await wizard.boards() })),
    [SETUP_PATHS.settings]: post(deps, async (req) => wizard.settings(await body(req, settingsBody))),
    [SETUP_PATHS.pair]: post(deps, async (req) => wizard.pair(host(req))),
    [SETUP_PATHS.token]: post(deps, async (req) =>
      wizard.token(host(req), (await body(req, tokenBody)).label),
    ),
    [SETUP_PATHS.switchRig]: post(deps, async (req, res) => {
      const result = await wizard.switchRig(await body(req, switchBody));
      // Only once the page has its answer: the restart closes this server.
      res.once("finish", () => wizard.restart("the setup wizard switched the rig"));
      return result;
    }),
    [SETUP_PATHS.finish]: post(deps, async () => wizard.finish()),
  };
}

type Step = (req: IncomingMessage, res: ServerResponse) => Promise<unknown>;

function get(deps: SetupRoutesDeps, step: Step): RawHandler {
  return async (req, res) => {
    if (req.method !== "GET")
      return send(
        res,
        405,
        { ok: false, error: { code: "METHOD_NOT_ALLOWED", message: "use GET" } },
        { allow: "GET" },
      );
    const denied = refusal(req, "GET", deps);
    if (denied)
      return send(res, denied.status, {
        ok: false,
        error: { code: "UNAUTHORIZED", message: denied.message },
      });
    await answer(step, req, res, deps.log);
  };
}

function post(deps: SetupRoutesDeps, step: Step): RawHandler {
  return async (req, res) => {
    if (req.method !== "POST")
      return send(
        res,
        405,
        { ok: false, error: { code: "METHOD_NOT_ALLOWED", message: "use POST" } },
        { allow: "POST" },
      );
    const denied = refusal(req, "POST", deps);
    if (denied)
      return send(res, denied.status, {
        ok: false,
        error: { code: "UNAUTHORIZED", message: denied.message },
      });
    await answer(step, req, res, deps.log);
  };
}

async function answer(step: Step, req: IncomingMessage, res: ServerResponse, log: Logger): Promise<void> {
  try {
    const result = await step(req, res);
    send(res, 200, { ok: true, ...(result as object) });
  } catch (err) {
    const p = problem(err);
    if (p.code === "INTERNAL") log.error("setup step failed", { path: req.url, err });
    else log.info("setup step refused", { path: req.url, code: p.code });
    send(res, p.code === "BAD_REQUEST" ? 400 : 409, { ok: false, error: p });
  }
}

async function body<T extends z.ZodType>(req: IncomingMessage, schema: T): Promise<z.output<T>> {
  return readJsonBody(req, 4096, schema, "{…}", { emptyAs: {} });
}

function redirect(res: ServerResponse, to: string): void {
  res.writeHead(303, { location: to, "cache-control": "no-store" });
  res.end();
}

/** As the dashboard's: only this origin's files, no framing. */
const PAGE_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'",
};
