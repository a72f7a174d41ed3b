import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { assetPath } from "../util/paths.js";

/**
 * The dashboard's files in `assets/web/`: plain HTML, CSS and one script, no build step and nothing
 * fetched from elsewhere (the page works offline; its CSP allows only its own origin).
 */
export interface DashboardAssets {
  page: Buffer;
  script: Buffer;
  style: Buffer;
  /** The login form, with an optional (fixed, server-written) problem line. */
  loginPage(problem: string | null): string;
}

const PROBLEM_SLOT = "<!--problem-->";

export async function loadDashboardAssets(dir = assetPath("web")): Promise<DashboardAssets> {
  const [page, script, style, login] = await Promise.all([
    readFile(join(dir, "index.html")),
    readFile(join(dir, "app.js")),
    readFile(join(dir, "style.css")),
    readFile(join(dir, "login.html"), "utf8"),
  ]);
  return {
    page,
    script,
    style,
    loginPage: (problem) =>
      login.replace(PROBLEM_SLOT, problem ? `<p class="problem">${escapeHtml(problem)}</p>` : ""),
  };
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}
