/**
 * What starts a language server and which files it handles, and the table
 * of the servers the SDK ships: TypeScript/JavaScript (typescript-language-
 * server on the SDK's own TypeScript) and Python (Pyright).
 *
 * Security: a language server reads configuration the model wrote
 * (tsconfig.json, pyrightconfig.json, package.json). The defaults keep the
 * code that runs the SDK's own: tsserver is pinned to the SDK's TypeScript
 * (never a workspace's node_modules/typescript), automatic type acquisition
 * is off, tsserver loads no plugin from the workspace, and Pyright is told
 * a python path outside the workspace so it never runs a workspace venv's
 * interpreter (see docs/lsp.md).
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { SdkError } from "@agent-tools/core";

/** One language server: how to start it, which files it handles, what it is told. */
export interface LanguageServerConfig {
  /** Unique id, e.g. `typescript`, `python`. */
  readonly id: string;
  /** File extensions with the dot, lowercase, e.g. `[".ts", ".tsx"]`. */
  readonly extensions: readonly string[];
  /** The LSP languageId of a file with this extension (`typescript`, `typescriptreact`, `javascript`, `python`...). */
  readonly languageId: (extension: string) => string;
  /** Absolute path, or a name on the workspace's PATH (over SSH: a command on the remote machine). */
  readonly command: string;
  /** Arguments (`--stdio` for both default servers). */
  readonly args: readonly string[];
  /** Extra environment (merged over the minimal one the manager passes: PATH, LANG; never the host's environment). */
  readonly env?: Readonly<Record<string, string>>;
  /** Files whose nearest ancestor directory is the server's root; default: the workspace root. */
  readonly rootMarkers?: readonly string[];
  /** Sent as `initializationOptions` of `initialize`. */
  readonly initializationOptions?: unknown;
  /** Answered to `workspace/configuration` (the item's `section` is looked up by dotted path) and sent with `workspace/didChangeConfiguration`. */
  readonly settings?: unknown;
}

/** Where the SDK's own copies of the default servers live (undefined when not installed next to the SDK). */
export interface SdkLanguageServerPaths {
  /** typescript-language-server's `lib/cli.mjs`. */
  readonly typescriptLanguageServer?: string;
  /** The SDK's `typescript/lib` directory (holds tsserver.js). */
  readonly typescriptLib?: string;
  /** pyright's `langserver.index.js`. */
  readonly pyrightLangserver?: string;
  /** This package's tsserver entry (`tsserver/lib/tsserver.js`): the SDK's TypeScript with plugin loading removed. */
  readonly tsserverEntry?: string;
}

function resolveFrom(require: NodeRequire, specifier: string): string | undefined {
  try {
    return require.resolve(specifier);
  } catch {
    return undefined;
  }
}

/** Resolves the default servers from the SDK's own installation (its dependencies and optional peers). */
export function resolveSdkLanguageServers(): SdkLanguageServerPaths {
  const require = createRequire(import.meta.url);
  const tlsPackage = resolveFrom(require, "typescript-language-server/package.json");
  const typescriptPackage = resolveFrom(require, "typescript/package.json");
  const pyrightPackage = resolveFrom(require, "pyright/package.json");
  // src/runtime and dist/runtime are both two levels under the package root.
  const tsserverEntry = fileURLToPath(new URL("../../tsserver/lib/tsserver.js", import.meta.url));
  return {
    ...(existsSync(tsserverEntry) ? { tsserverEntry } : {}),
    ...(tlsPackage ? { typescriptLanguageServer: join(dirname(tlsPackage), "lib", "cli.mjs") } : {}),
    ...(typescriptPackage ? { typescriptLib: join(dirname(typescriptPackage), "lib") } : {}),
    ...(pyrightPackage ? { pyrightLangserver: join(dirname(pyrightPackage), "langserver.index.js") } : {}),
  };
}

const TYPESCRIPT_LANGUAGE_IDS: Readonly<Record<string, string>> = {
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "typescriptreact",
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "javascriptreact",
};

/**
 * The python interpreter path Pyright is told to use. It lies outside any
 * workspace and need not exist: Pyright then finds no search paths from an
 * interpreter instead of running one the model may have written.
 */
export const PYRIGHT_PYTHON_PATH = "/nonexistent/agent-tools-no-python";

function requirePaths<K extends keyof SdkLanguageServerPaths>(
  paths: SdkLanguageServerPaths,
  server: string,
  keys: readonly K[],
): Required<Pick<SdkLanguageServerPaths, K>> {
  const missing = keys.filter((key) => typeof paths[key] !== "string" || paths[key] === "");
  if (missing.length > 0) {
    throw new SdkError(
      "invalid_options",
      `The ${server} server config needs ${missing.join(", ")} (absolute paths); without them it would run code the workspace provides.`,
    );
  }
  return paths as Required<Pick<SdkLanguageServerPaths, K>>;
}

/**
 * The TypeScript server's config for the given paths (the SDK's own by
 * default; a remote machine's for SSH). All three paths are required: the
 * tsserver entry is what keeps a workspace's node_modules/typescript and
 * tsconfig plugins from running, so there is no fallback without it.
 */
export function typescriptServerConfig(paths: SdkLanguageServerPaths, nodePath: string = process.execPath): LanguageServerConfig {
  const { typescriptLanguageServer, typescriptLib, tsserverEntry } = requirePaths(paths, "typescript", [
    "typescriptLanguageServer",
    "typescriptLib",
    "tsserverEntry",
  ]);
  return {
    id: "typescript",
    extensions: Object.keys(TYPESCRIPT_LANGUAGE_IDS),
    languageId: (extension) => TYPESCRIPT_LANGUAGE_IDS[extension] ?? "typescript",
    command: nodePath,
    args: [typescriptLanguageServer, "--stdio"],
    env: { AGENT_TOOLS_TYPESCRIPT_LIB: typescriptLib },
    // No root markers: one tsserver for the workspace handles every tsconfig in it.
    initializationOptions: {
      // The package's own tsserver entry on the SDK's TypeScript, never the workspace's node_modules/typescript.
      tsserver: { path: tsserverEntry, fallbackPath: tsserverEntry, useSyntaxServer: "never" },
      // Automatic type acquisition downloads and runs npm: off.
      disableAutomaticTypingAcquisition: true,
      // No global plugins; tsserver's --allowLocalPluginLoads stays off and pluginProbeLocations empty.
      plugins: [],
      tsserverRequestCancellation: false,
      maxTsServerMemory: 3072,
      preferences: { includeCompletionsForModuleExports: false },
    },
    settings: {},
  };
}

/** Pyright's config for the given path of `langserver.index.js` (the SDK's own by default). */
export function pythonServerConfig(paths: SdkLanguageServerPaths, nodePath: string = process.execPath): LanguageServerConfig {
  const { pyrightLangserver } = requirePaths(paths, "python", ["pyrightLangserver"]);
  return {
    id: "python",
    extensions: [".py", ".pyi"],
    languageId: () => "python",
    command: nodePath,
    args: [pyrightLangserver, "--stdio"],
    rootMarkers: ["pyrightconfig.json", "pyproject.toml"],
    settings: {
      python: {
        // Pyright runs this interpreter to learn search paths: a path outside the workspace.
        pythonPath: PYRIGHT_PYTHON_PATH,
        analysis: { autoSearchPaths: false, diagnosticMode: "openFilesOnly", useLibraryCodeForTypes: true },
      },
    },
  };
}

/**
 * The servers the SDK ships, resolved from its own installation (run as
 * `node <cli> --stdio`). A server whose packages are not installed next to
 * the SDK is left out (its files then have no server), never looked up on
 * PATH or in the workspace.
 */
export const DEFAULT_LANGUAGE_SERVERS: readonly LanguageServerConfig[] = (() => {
  const paths = resolveSdkLanguageServers();
  const servers: LanguageServerConfig[] = [];
  if (paths.typescriptLanguageServer && paths.typescriptLib && paths.tsserverEntry) servers.push(typescriptServerConfig(paths));
  if (paths.pyrightLangserver) servers.push(pythonServerConfig(paths));
  return servers;
})();
