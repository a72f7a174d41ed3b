import { z } from "zod";

/** The dashboard page served at / on the MCP port. */
export const dashboardConfigSchema = z
  .strictObject({
    enabled: z
      .boolean()
      .default(true)
      .describe(
        "Serve the dashboard at `/` on the MCP port. Off loopback it needs an MCP token (entered once in a login form).",
      ),
    pollMs: z
      .number()
      .int()
      .min(250)
      .max(60_000)
      .default(1500)
      .describe("How often an open dashboard page asks for the rig's status (ms)."),
    frameRefreshMs: z
      .number()
      .int()
      .min(0)
      .max(3_600_000)
      .default(5000)
      .describe(
        "While a dashboard page is open, the annotated camera view is refreshed when it is older than this (ms); each refresh runs the vision pipeline once (it never takes the arm). 0 = only when Peek is clicked.",
      ),
    recentSessions: z
      .number()
      .int()
      .min(0)
      .max(100)
      .default(10)
      .describe("How many of the newest agent sessions the dashboard lists."),
    priority: z
      .string()
      .min(1)
      .default("local")
      .describe(
        "Priority class (see the arm-sharing classes) of the dashboard's Park and E-stop reset buttons, which wait for the arm like any caller.",
      ),
    waitLimitMs: z
      .number()
      .int()
      .min(0)
      .max(3_600_000)
      .default(60_000)
      .describe("How long Park and E-stop reset wait for the arm before giving up (ms)."),
    loginHours: z
      .number()
      .min(0.1)
      .max(24 * 365)
      .default(12)
      .describe(
        "How long a dashboard login (a cookie derived from the MCP token) lasts; revoking the token ends it at once.",
      ),
    openSetupFirst: z
      .boolean()
      .default(false)
      .describe(
        "Until the setup wizard (`/setup`) is finished, `/` sends the browser there (the SD image turns this on); otherwise the dashboard only links to it.",
      ),
    trustProxy: z
      .boolean()
      .default(false)
      .describe(
        "Trust `X-Forwarded-Proto` from a reverse proxy in front of the daemon: `https` there marks the login cookie `Secure`. Turn on only behind a proxy that sets the header itself (any client can send it). Over a TLS socket the cookie is `Secure` either way.",
      ),
  })
  .describe("The dashboard page served at / on the MCP port.");

export type DashboardConfig = z.output<typeof dashboardConfigSchema>;
