// Lets @modelcontextprotocol/conformance (0.1.16 … 0.2.0-alpha.12) start on Node 20: its bundle imports `globSync` from
// "fs" (Node ≥ 22) for the `tier-check` command only. On older Nodes this resolve hook hands the
// conformance package an "fs" that adds a `globSync` which throws if ever called; server mode never
// calls it. Use: node --import ./node20-loader.mjs node_modules/@modelcontextprotocol/conformance/dist/index.js …
import fs from "node:fs";
import { register } from "node:module";

if (typeof fs.globSync !== "function") {
  const shim = `data:text/javascript,${encodeURIComponent(
    'export * from "node:fs"; import fs from "node:fs"; export default fs;' +
      ' export function globSync() { throw new Error("fs.globSync needs Node 22"); }',
  )}`;
  const hooks =
    "export async function resolve(specifier, context, next) {" +
    '  if ((specifier === "fs" || specifier === "node:fs") &&' +
    '      context.parentURL?.includes("/@modelcontextprotocol/conformance/")) {' +
    `    return { url: ${JSON.stringify(shim)}, shortCircuit: true };` +
    "  }" +
    "  return next(specifier, context);" +
    "}";
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}
