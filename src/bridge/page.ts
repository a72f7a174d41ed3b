import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { assetPath } from "../util/paths.js";

/**
 * The page the phone opens: one self-contained HTML file (inline script and style, no external assets)
 * in `assets/bridge/page.html`. Its Content-Security-Policy allows exactly that inline script and
 * style by hash, the page's own origin for fetches, and nothing else: no inline event handlers, no
 * scripts inside a pattern's SVG, no framing.
 */
export interface BridgePage {
  html: Buffer;
  csp: string;
}

export async function loadBridgePage(path = assetPath("bridge", "page.html")): Promise<BridgePage> {
  const text = await readFile(path, "utf8");
  const scripts = blocks(text, "script");
  const styles = blocks(text, "style");
  const csp = [
    "default-src 'none'",
    `script-src ${scripts.map(hashSource).join(" ") || "'none'"}`,
    `style-src ${styles.map(hashSource).join(" ") || "'none'"}`,
    "img-src data: blob:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
  return { html: Buffer.from(text, "utf8"), csp };
}

function blocks(html: string, tag: string): string[] {
  const re = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g");
  return [...html.matchAll(re)].map((m) => m[1] ?? "");
}

function hashSource(content: string): string {
  return `'sha256-${createHash("sha256").update(content, "utf8").digest("base64")}'`;
}
