import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The project root (the folder holding package.json), found from this module's location so it works
 * both from `src/` (vitest) and from the compiled `dist/src/`.
 */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "assets"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error("projectRoot: no package.json with assets/ above this module");
    dir = parent;
  }
}

/** Absolute path of a file under the project's `assets/` folder. */
export function assetPath(...parts: string[]): string {
  return join(projectRoot(), "assets", ...parts);
}
