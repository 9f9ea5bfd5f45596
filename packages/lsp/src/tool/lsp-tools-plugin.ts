/**
 * `lspTools()`: the LSP tool and diagnostics after edits as a plugin. One
 * language server manager per registry, on the registry's workspace (its
 * processes and files when it is not the local disk), confined by the
 * registry's command sandbox when it has one, closed with the registry.
 */
import path from "node:path";
import { type ProcessRunner, SdkError, type SpawnOptions, type ToolPlugin, type ToolPluginHost } from "@agent-tools/core";
import { EDIT_DIAGNOSTICS_SLOT } from "@agent-tools/core/diagnostics";
import { isWithin, tryRealpath } from "@agent-tools/core/internal";
import { resolveSandboxPolicy } from "@agent-tools/node/internal";
import { DEFAULT_LANGUAGE_SERVERS, type LanguageServerConfig } from "../runtime/language-server-config.js";
import { MAX_DOCUMENT_BYTES, createLanguageServerManager } from "../runtime/language-server-manager.js";
import { createLspEditDiagnostics } from "../runtime/lsp-edit-diagnostics.js";
import { SERVER_FS_GUARD_PATH, serverInstallRoots, withServerReadGuard } from "../runtime/server-read-guard.js";
import { type LspPluginOptions, checkLspPluginOptions } from "./lsp-plugin-options.js";
import { createLspTool } from "./lsp-tool.js";
import type { LspToolEnvironment } from "./lsp-tool-environment.js";
import { readLocalBounded, readWorkspaceBounded } from "./read-bounded-file.js";

/** Default of `maxResults`. */
export const DEFAULT_LSP_MAX_RESULTS = 100;

/** Where the servers run: the workspace's processes and files, or the host's; or why they cannot. */
interface ServerHome {
  readonly root: string;
  readonly processes: ProcessRunner;
  readonly readFile: (file: string, signal?: AbortSignal) => Promise<Buffer>;
  readonly confine?: (spawn: SpawnOptions) => SpawnOptions;
  readonly unavailable?: string;
}

function serverHome(host: ToolPluginHost, options: LspPluginOptions, servers: readonly LanguageServerConfig[]): ServerHome {
  const workspace = host.ports.workspace;
  if (workspace !== undefined && !workspace.capabilities.localPaths) {
    const hidden = options.hiddenPaths?.() ?? [];
    if (hidden.length > 0) {
      throw new SdkError(
        "invalid_options",
        `lsp cannot run on the ${workspace.kind} workspace ${workspace.label} with the permission rule ${JSON.stringify(hidden[0]?.rule)}: a language server there reads every file its program reaches and cannot be kept from the files that rule hides. Turn lsp off for this registry or drop the rule.`,
        { option: "lsp", rule: hidden[0]?.rule },
      );
    }
    const readRemote = (file: string, signal?: AbortSignal) => readWorkspaceBounded(workspace.fs, file, MAX_DOCUMENT_BYTES, signal);
    if (!workspace.processes) {
      return {
        root: workspace.root,
        processes: host.ports.processRunner,
        readFile: readRemote,
        unavailable: `the ${workspace.kind} workspace ${workspace.label} runs no processes, so no language server can start there.`,
      };
    }
    if (host.ports.sandbox !== undefined) {
      return {
        root: workspace.root,
        processes: workspace.processes,
        readFile: readRemote,
        unavailable: `the sandbox confines processes on this host only, and this registry's workspace is ${workspace.label}.`,
      };
    }
    return { root: workspace.root, processes: workspace.processes, readFile: readRemote };
  }
  const root = tryRealpath(host.workdir) ?? host.workdir;
  const readableRoots = () => [
    root,
    ...(host.registry.built ? host.registry.paths.roots().filter((item) => item.status !== "missing") : []).map((item) => item.canonicalPath),
  ];
  // A server reads what its program reaches (`/// <reference>`, tsconfig paths, extraPaths): only the roots, its own installation, never a hidden path.
  const installRoots = [...new Set(servers.flatMap(serverInstallRoots))];
  const guard = (spawn: SpawnOptions) => withServerReadGuard(spawn, { roots: [...readableRoots(), ...installRoots], hidden: options.hiddenPaths?.() ?? [] });
  const local = {
    root,
    processes: host.ports.processRunner,
    readFile: (file: string, signal?: AbortSignal) => readLocalBounded(file, MAX_DOCUMENT_BYTES, signal),
    confine: guard,
  };
  const state = host.ports.sandbox;
  if (state === undefined) return local;
  if (state.sandbox === undefined) return { ...local, unavailable: state.unavailable };
  const sandbox = state.sandbox;
  // The servers read the workspace and the granted roots, and write nowhere in them. Their own
  // code (the installed packages, the read guard and the matcher it loads) is bound read-only too:
  // a sandbox's private /tmp would otherwise hide an SDK installed under /tmp.
  const confine = (spawn: SpawnOptions) => {
    const hidden = options.hiddenPaths?.() ?? [];
    const code = [...installRoots, path.dirname(SERVER_FS_GUARD_PATH), ...hidden.map((entry) => entry.minimatch)].map(installationRootOf);
    const readOnlyRoots = [...new Set([...readableRoots(), ...code.map((item) => tryRealpath(item) ?? item)])];
    const policy = resolveSandboxPolicy({ settings: state.settings, writableRoots: [], readOnlyRoots });
    return sandbox.confine(guard(spawn), policy);
  };
  return { ...local, confine };
}

/**
 * The LSP tool (definitions, references, hover, symbols, diagnostics,
 * implementations, call hierarchy) and, unless `diagnosticsAfterEdits` is
 * false, the errors each Write, Edit, ApplyPatch and Delete introduced
 * appended to its result. In chat and cron; a subagent's child gets its own
 * servers on its worktree. Throws `SdkError` for unknown or invalid options.
 *
 * @example
 * const registry = await composeToolRegistry({ workdir: "/repo", plugins: [fsTools(), lspTools({ maxResults: 50 })] });
 * await registry.executeToolCall({ id: "1", name: "LSP", arguments: { action: "definition", path: "src/a.ts", line: 3, character: 10 } });
 */
export function lspTools(options?: LspPluginOptions): ToolPlugin {
  const checked = checkLspPluginOptions(options);
  return {
    id: "lsp",
    scopes: ["chat", "cron"],
    child: "inherit",
    create(host) {
      const servers = checked.servers ?? DEFAULT_LANGUAGE_SERVERS;
      const home = serverHome(host, checked, servers);
      const manager = createLanguageServerManager({
        workspaceRoot: home.root,
        processes: home.processes,
        readFile: home.readFile,
        servers,
        ...(home.confine ? { confine: home.confine } : {}),
        ...(checked.idleStopMs === undefined ? {} : { idleStopMs: checked.idleStopMs }),
        ...(checked.maxOpenDocuments === undefined ? {} : { maxOpenDocuments: checked.maxOpenDocuments }),
        ...(host.logger ? { logger: host.logger } : {}),
      });
      host.onClose(() => manager.close());
      const environment: LspToolEnvironment = {
        manager,
        servers,
        maxResults: checked.maxResults ?? DEFAULT_LSP_MAX_RESULTS,
        readFile: home.readFile,
        gitRunner: () => home.processes,
        async readDenied(file, signal) {
          const policy = host.registry.registry().policy;
          if (!policy.installed) return false;
          // LSP is judged as a Read of its path: Read(...) deny rules (and LSP(...) ones) decide.
          const verdict = await policy.explain(
            { name: "LSP", arguments: { action: "document_symbols", path: file } },
            { runHooks: false, ...(signal ? { signal } : {}) },
          );
          return verdict.decision === "deny";
        },
        ...(home.unavailable === undefined ? {} : { unavailable: home.unavailable }),
      };
      const diagnostics = checked.diagnosticsAfterEdits ?? true;
      if (diagnostics !== false && home.unavailable === undefined) {
        const tuning = typeof diagnostics === "object" ? diagnostics : {};
        const displayPath = (file: string) => (isWithin(home.root, file) ? path.relative(home.root, file) || "." : file);
        host.contribute(EDIT_DIAGNOSTICS_SLOT, createLspEditDiagnostics(manager, { ...tuning, displayPath }));
      }
      const tool = createLspTool(environment);
      return { id: "lsp", trusted: true, listTools: () => [tool], close: () => manager.close() };
    },
  };
}

/**
 * The directory that holds a server's code with its dependencies: the
 * top-most `node_modules` above it (pnpm keeps dependencies beside the
 * package under `node_modules/.pnpm`), else the path's own directory.
 */
function installationRootOf(file: string): string {
  const marker = `${path.sep}node_modules${path.sep}`;
  const at = file.indexOf(marker);
  return at === -1 ? path.dirname(file) : file.slice(0, at + marker.length - 1);
}
