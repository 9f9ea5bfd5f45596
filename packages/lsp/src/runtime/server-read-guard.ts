/**
 * The read guard of a local language server: `server-guard/server-fs-guard.cjs`
 * preloaded through NODE_OPTIONS (so tsserver, which typescript-language-
 * server forks, and Pyright's worker threads load it too), told through one
 * environment variable which directories the server may read (the registry's
 * readable roots and the server's own installation) and which paths the
 * permission rules hide. Anything else looks absent (ENOENT) to the server,
 * so hover and diagnostics cannot quote it.
 */
import { existsSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SpawnOptions } from "@agent-tools/core";
import type { LanguageServerConfig } from "./language-server-config.js";
import type { HiddenPathData } from "@agent-tools/core/internal";

/** A path the permission rules hide from the model (a `Read(...)` deny or ask rule), as data the guard evaluates. */
export type LspHiddenPath = HiddenPathData;

/** What a guarded server may read. */
export interface ServerReadGuard {
  /** Canonical absolute directories (or files) the server may read below. */
  readonly roots: readonly string[];
  /** Paths hidden inside them. */
  readonly hidden: readonly LspHiddenPath[];
}

/** The environment variable carrying the guard's JSON. */
export const READ_GUARD_ENV = "AGENT_TOOLS_LSP_READ_GUARD";

/** The preload module (src/runtime and dist/runtime are both two levels under the package root). */
export const SERVER_FS_GUARD_PATH = fileURLToPath(new URL("../../server-guard/server-fs-guard.cjs", import.meta.url));

function packageRootOf(file: string): string | undefined {
  let directory = dirname(file);
  while (dirname(directory) !== directory) {
    if (existsSync(join(directory, "package.json"))) return realpathSync(directory);
    directory = dirname(directory);
  }
  return undefined;
}

/**
 * The installation directories a server reads its own code and bundled
 * libraries from: the package of every absolute path in its args, env and
 * tsserver options (typescript-language-server, the SDK's TypeScript,
 * pyright with its typeshed, this package's tsserver entry).
 */
export function serverInstallRoots(config: LanguageServerConfig): string[] {
  const tsserver = (config.initializationOptions as { tsserver?: { path?: unknown } } | undefined)?.tsserver?.path;
  const candidates = [...config.args, ...Object.values(config.env ?? {}), ...(typeof tsserver === "string" ? [tsserver] : [])];
  const roots = new Set<string>();
  for (const candidate of candidates) {
    if (!isAbsolute(candidate) || !existsSync(candidate)) continue;
    const root = packageRootOf(join(candidate, "x"));
    if (root !== undefined) roots.add(root);
  }
  return [...roots];
}

/** `spawn` with the guard preloaded and configured (NODE_OPTIONS keeps any value the config set). */
export function withServerReadGuard(spawn: SpawnOptions, guard: ServerReadGuard): SpawnOptions {
  const preload = `--require ${JSON.stringify(SERVER_FS_GUARD_PATH)}`;
  const existing = spawn.env?.NODE_OPTIONS;
  return {
    ...spawn,
    env: {
      ...spawn.env,
      NODE_OPTIONS: existing ? `${preload} ${existing}` : preload,
      [READ_GUARD_ENV]: JSON.stringify({ roots: guard.roots, hidden: guard.hidden }),
    },
  };
}
