/**
 * The `workspace` option of `buildBuiltinToolRegistry`: where the tools work
 * when it is not (only) the host's own disk. The workdir and every granted
 * root are checked through the workspace before anything is built, and the
 * options that cannot work on a non-local workspace yet are refused.
 */
import { type AdditionalRoot, SdkError, type ToolPorts } from "@agent-tools/core";
import { type Workspace, WorkspaceError, isWithinWorkspacePath } from "@agent-tools/core/workspace";
import { checkWorkspaceShape } from "./workspace-shape.js";

/** What {@link placeInWorkspace} reads from the registry's options. */
export interface WorkspacePlacementInput {
  readonly workspace?: Workspace;
  readonly workdir?: string;
  readonly additionalRoots?: readonly AdditionalRoot[];
  readonly ports?: Partial<ToolPorts>;
  readonly sandbox?: { readonly enabled?: boolean };
  readonly checkpoints?: unknown;
  readonly subagents?: unknown;
  readonly cron?: unknown;
  readonly skills?: unknown;
  readonly mcp?: { readonly getSettings?: unknown; readonly roots?: unknown };
}

/** The registry's workdir, roots and ports once placed in the workspace. */
export interface WorkspacePlacement {
  /** The canonical workdir (through the workspace when one is given). */
  readonly workdir: string | undefined;
  readonly additionalRoots: readonly AdditionalRoot[] | undefined;
  /** The host's ports with `workspace` set (the same object when no workspace is given). */
  readonly ports: Partial<ToolPorts> | undefined;
  /** The workspace when it is not the local disk. */
  readonly remote: Workspace | undefined;
}

/**
 * Why each option is refused with a non-local workspace (they read or run on
 * this host's disk; none of them may fall back to it).
 */
const NOT_ON_A_REMOTE_WORKSPACE: ReadonlyArray<readonly [keyof WorkspacePlacementInput, string]> = [];

/**
 * Places the registry in its workspace. Without `workspace` (nor
 * `ports.workspace`) nothing changes: the local disk, as before. With one,
 * the workdir (default: `workspace.root`) and each granted root must
 * canonicalise through the workspace to an existing directory inside
 * `workspace.root`; each root gets that canonical path. With a non-local
 * workspace, `sandbox`, a
 * host's `ports.sandbox` / `ports.fileCheckpoints`, and MCP with the default
 * roots (`mcp.roots` absent) are refused. Throws
 * `SdkError` (`invalid_options`, `invalid_root`) naming the option.
 *
 * @example
 * const placed = await placeInWorkspace({ workspace: createMemoryWorkspace({ root: "/srv/app" }) });
 * placed.workdir; // "/srv/app"
 */
export async function placeInWorkspace(options: WorkspacePlacementInput): Promise<WorkspacePlacement> {
  const workspace = chooseWorkspace(options);
  if (workspace === undefined) return { workdir: options.workdir, additionalRoots: options.additionalRoots, ports: options.ports, remote: undefined };
  const remote = workspace.capabilities.localPaths ? undefined : workspace;
  if (remote !== undefined) refuseLocalOnlyOptions(options, remote);
  const workdir = await canonicalDirectory(workspace, options.workdir ?? workspace.root, "workdir", "invalid_options");
  const additionalRoots = options.additionalRoots === undefined ? undefined : await placeRoots(workspace, options.additionalRoots);
  const ports = withWorkspace(options.ports, workspace);
  return { workdir, additionalRoots, ports, remote };
}

/** `options.workspace`, or `ports.workspace`; both given must be the same object. */
function chooseWorkspace(options: WorkspacePlacementInput): Workspace | undefined {
  const top = options.workspace;
  const fromPorts = options.ports?.workspace;
  if (top !== undefined && fromPorts !== undefined && top !== fromPorts) {
    throw new SdkError("invalid_options", "workspace and ports.workspace name different workspaces; pass one (workspace).", { option: "workspace" });
  }
  const workspace = top ?? fromPorts;
  if (workspace === undefined) return undefined;
  checkWorkspaceShape(workspace);
  return workspace;
}

function refuseLocalOnlyOptions(options: WorkspacePlacementInput, workspace: Workspace): void {
  const refuse = (option: string, reason: string): never => {
    throw new SdkError(
      "invalid_options",
      `${option} is not available with a non-local workspace (${workspace.label}) yet: ${reason}. Leave it out, or use a local workspace.`,
      { option, workspace: workspace.label },
    );
  };
  if (options.sandbox !== undefined && options.sandbox !== null && options.sandbox.enabled === true) {
    refuse("sandbox", "the sandbox (bubblewrap) confines commands on this host only, and this registry's commands run in the workspace");
  }
  if (options.ports?.sandbox !== undefined) refuse("ports.sandbox", "the sandbox confines commands on this host only");
  if (options.ports?.fileCheckpoints !== undefined) {
    refuse(
      "ports.fileCheckpoints",
      "a recorder of the host's own may read files on this host's disk; pass checkpoints (with store or storage) instead, whose recorder reads the workspace's files through it",
    );
  }
  for (const [option, reason] of NOT_ON_A_REMOTE_WORKSPACE) if (options[option] !== undefined) refuse(option, reason);
  if (typeof options.mcp?.getSettings === "function" && options.mcp.roots === undefined) {
    refuse(
      "mcp.roots",
      "MCP servers run on this host, and the default roots would offer them the workspace's paths as file:// URIs of this disk; pass mcp.roots: false (or a getter of your own)",
    );
  }
}

/** The canonical path of an existing directory inside the workspace's root, or an `SdkError` naming `option`. */
async function canonicalDirectory(workspace: Workspace, declared: unknown, option: string, code: "invalid_options" | "invalid_root"): Promise<string> {
  const fail = (problem: string): never => {
    throw new SdkError(code, `${option} ${problem} (workspace ${workspace.label}, root ${workspace.root}).`, { option, workspace: workspace.label });
  };
  if (typeof declared !== "string" || !declared.startsWith("/") || declared.includes("\0")) {
    return fail(`must be an absolute path of the workspace, not ${JSON.stringify(String(declared).slice(0, 200))}`);
  }
  let canonical: string;
  try {
    canonical = await workspace.fs.realpath(declared);
  } catch (error) {
    if (error instanceof WorkspaceError && (error.code === "not_found" || error.code === "not_a_directory")) return fail(`${declared} does not exist`);
    return fail(`${declared} could not be checked: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isWithinWorkspacePath(workspace.root, canonical)) return fail(`${declared} resolves to ${canonical}, outside the workspace root`);
  const stats = await workspace.fs.stat(canonical).catch((error: unknown) => fail(`${declared} could not be checked: ${String(error)}`));
  if (stats.type !== "directory") fail(`${declared} is not a directory`);
  return canonical;
}

/** Each grant with its canonical path through the workspace (malformed grants are left to the path policy's own checks). */
async function placeRoots(workspace: Workspace, roots: readonly AdditionalRoot[]): Promise<AdditionalRoot[]> {
  if (!Array.isArray(roots)) return roots as AdditionalRoot[];
  const placed: AdditionalRoot[] = [];
  for (const root of roots) {
    if (root === null || typeof root !== "object" || typeof root.path !== "string") {
      placed.push(root);
      continue;
    }
    const option = `additionalRoots: root ${JSON.stringify(String(root.alias).slice(0, 40))}: path`;
    const canonicalPath = await canonicalDirectory(workspace, root.path, option, "invalid_root");
    if (root.canonicalPath !== undefined && root.canonicalPath !== canonicalPath) {
      throw new SdkError("invalid_root", `${option} ${root.path} now resolves to ${canonicalPath}, not ${root.canonicalPath} as granted; grant it again.`, {
        option: "additionalRoots",
        alias: root.alias,
      });
    }
    placed.push({ ...root, canonicalPath });
  }
  return placed;
}

/**
 * The host's ports with `workspace` added (its getters untouched: a view
 * over the host's object). The file tools hand the workspace to the
 * checkpoint recorder with each path, which reads it through the workspace.
 */
function withWorkspace(ports: Partial<ToolPorts> | undefined, workspace: Workspace): Partial<ToolPorts> {
  const base = ports ?? {};
  return Object.create(base, { workspace: { value: workspace, enumerable: true } }) as Partial<ToolPorts>;
}
