import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { projectRoot } from "../../../src/util/paths.js";

/**
 * Transpile a TypeScript entry file and every project module it imports (relative `.js` imports)
 * to plain JavaScript for a child `node` process, so process-level tests run the current sources
 * without a build and without a loader in every child (children then start in ~0.1 s).
 * The output lives under node_modules/.cache so bare imports (croner, …) resolve as usual.
 * Returns the compiled entry's path.
 */
export async function compileForChild(entry: string): Promise<string> {
  const ts = (await import("typescript")).default;
  const root = projectRoot();
  const cacheRoot = join(root, "node_modules", ".cache");
  mkdirSync(cacheRoot, { recursive: true });
  const out = mkdtempSync(join(cacheRoot, "piclaw-child-"));
  const pending = [resolve(entry)];
  const done = new Set<string>();
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (done.has(file)) continue;
    done.add(file);
    const source = readFileSync(file, "utf8");
    for (const m of source.matchAll(/from\s+"(\.{1,2}\/[^"]+)\.js"/g))
      if (!/^import\s+type\s/m.test(source.slice(source.lastIndexOf("\n", m.index) + 1, m.index)))
        pending.push(resolve(dirname(file), `${m[1]}.ts`));
    const js = ts.transpileModule(source, {
      fileName: file,
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        verbatimModuleSyntax: true,
      },
    }).outputText;
    const target = join(out, relative(root, file)).replace(/\.ts$/, ".js");
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, js);
  }
  return join(out, relative(root, resolve(entry))).replace(/\.ts$/, ".js");
}
