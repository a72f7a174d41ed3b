#!/usr/bin/env node
// The `piclaw` command: runs the compiled CLI (npm ci builds it through the `prepare` script).
import { existsSync } from "node:fs";

const entry = new URL("../dist/src/app/cli.js", import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write("piclaw: not built yet; run `npm run build` (npm ci does it for you)\n");
  process.exit(1);
}
const { main, reportError } = await import(entry.href);
try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  process.exitCode = reportError(err);
}
