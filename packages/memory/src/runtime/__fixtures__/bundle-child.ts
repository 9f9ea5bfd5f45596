// Bundles a TypeScript child script into one plain JavaScript file, so that tests which start it dozens of
// times pay Node's start-up only, not tsx's compilation of the whole module graph on every start (~0.5 s
// instead of ~1.7 s on a busy machine). esbuild is tsx's own dependency (tsx is the workspace's test runner).
// better-sqlite3 (native) stays external: the bundle's directory gets a node_modules link to where the
// storage package finds it.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repositoryRoot = path.resolve(here, "../../../../..");

interface EsbuildApi {
  build(options: Record<string, unknown>): Promise<unknown>;
}

const BANNER = [
  'import { createRequire as __createRequire } from "node:module";',
  'import { fileURLToPath as __fileURLToPath } from "node:url";',
  "const require = __createRequire(import.meta.url);",
  "const __filename = __fileURLToPath(import.meta.url);",
  'const __dirname = __filename.slice(0, __filename.lastIndexOf("/"));',
].join(" ");

/** Bundles `entry` into `<directory>/child.mjs` and returns the command line that runs it. */
export async function bundleChild(entry: string, directory: string): Promise<{ command: string; args: string[] }> {
  const fromRoot = createRequire(path.join(repositoryRoot, "package.json"));
  const esbuild = createRequire(fromRoot.resolve("tsx/package.json"))("esbuild") as EsbuildApi;
  const outfile = path.join(directory, "child.mjs");
  await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    conditions: ["@agent-tools/source"],
    external: ["better-sqlite3", "pg"],
    logLevel: "warning",
    banner: { js: BANNER },
  });
  fs.symlinkSync(path.join(repositoryRoot, "packages", "storage", "node_modules"), path.join(directory, "node_modules"), "dir");
  return { command: process.execPath, args: [outfile] };
}
