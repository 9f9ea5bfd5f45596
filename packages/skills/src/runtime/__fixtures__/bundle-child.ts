// Bundles a TypeScript child script into one plain JavaScript file, so tests that start it many times pay
// Node's start-up only, not tsx's compilation of the module graph on every start. esbuild is tsx's own
// dependency (tsx is the workspace's test runner). Every dependency of the skills runtime is plain JavaScript.
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../..");

interface EsbuildApi {
  build(options: Record<string, unknown>): Promise<unknown>;
}

/** Bundles `entry` into `<directory>/<basename>.mjs` and returns the command line that runs it. */
export async function bundleChild(entry: string, directory: string): Promise<{ command: string; args: string[] }> {
  const fromRoot = createRequire(path.join(repositoryRoot, "package.json"));
  const esbuild = createRequire(fromRoot.resolve("tsx/package.json"))("esbuild") as EsbuildApi;
  const outfile = path.join(directory, `${path.basename(entry, ".ts")}.mjs`);
  await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    conditions: ["@agent-tools/source"],
    logLevel: "warning",
    banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
  });
  return { command: process.execPath, args: [outfile] };
}
