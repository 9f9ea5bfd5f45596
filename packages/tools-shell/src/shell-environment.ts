import { existsSync, statSync } from "node:fs";
import { type ResolvedPath, type ToolContext, ToolError } from "@agent-tools/core";
import { type Workspace, WorkspaceError, resolveInWorkspace } from "@agent-tools/core/workspace";

/** Facts about the shell commands run in, shown in results. */
export interface ShellInfo {
  /** Shell executable. */
  shell: string;
  platform: string;
  /** `non-interactive`: no profile or rc file is sourced. */
  profile: string;
  shell_family: "posix";
}

/** The shell used: `/bin/bash` when present, else `/bin/sh`, unless the host chose one. */
export function resolveShellInfo(shell?: string): ShellInfo {
  const chosen = shell ?? (existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh");
  return { shell: chosen, platform: process.platform, profile: "non-interactive", shell_family: "posix" };
}

/** Environment added to every command: no pagers, no interactive git prompts. */
export const COMMAND_ENVIRONMENT: Readonly<Record<string, string>> = {
  PAGER: "cat",
  GIT_PAGER: "cat",
  GIT_TERMINAL_PROMPT: "0",
};

/**
 * Resolves a command's working directory through the path policy:
 * workspace-relative, `skill://`, or any absolute path (`root://` is refused).
 * Default: the workspace. A NUL byte is refused before the path policy sees it.
 * On a workspace that is not the local disk the directory is checked through
 * the workspace (see {@link checkWorkspaceCwd}), never on the host.
 */
export async function resolveCommandCwd(context: ToolContext, cwd: string | undefined, label: string): Promise<string> {
  if (cwd === undefined || cwd.trim() === "") return context.workdir;
  if (cwd.includes("\u0000")) {
    throw new ToolError(
      "invalid_arguments",
      `${label} contains a NUL byte; NUL bytes cannot be passed to a shell command as its working directory. Pass a plain directory path, or omit cwd to run in the workspace root.`,
      { details: { guard: "nul" } },
    );
  }
  const resolved = context.paths.resolve(cwd, { intent: "cwd", label, allowExternal: true });
  const workspace = context.ports.workspace;
  if (workspace !== undefined && !workspace.capabilities.localPaths) return checkWorkspaceCwd(workspace, resolved, label);
  if (!resolved.exists) {
    throw new ToolError(
      "not_found",
      `${label} ${resolved.displayPath} does not exist. Pass an existing directory (workspace-relative or absolute), or omit cwd to run in the workspace root.`,
    );
  }
  if (!statSync(resolved.absolutePath).isDirectory()) {
    throw new ToolError("not_a_directory", `${label} ${resolved.displayPath} is a file, not a directory. Pass its parent directory as cwd.`);
  }
  return resolved.absolutePath;
}

/**
 * A working directory of a non-local workspace: canonicalised through the
 * workspace's file system, inside its root (or the root the path was placed
 * in), and an existing directory. Throws `ToolError` (`out_of_bounds`,
 * `not_found`, `not_a_directory`, `io`).
 */
async function checkWorkspaceCwd(workspace: Workspace, resolved: ResolvedPath, label: string): Promise<string> {
  const bound = resolved.scope === "external" ? workspace.root : resolved.rootPath;
  try {
    const canonical = await resolveInWorkspace(workspace.fs, bound, resolved.absolutePath);
    if (!canonical.exists) {
      throw new ToolError(
        "not_found",
        `${label} ${resolved.displayPath} does not exist on ${workspace.label}. Pass an existing directory (workspace-relative or absolute), or omit cwd to run in the workspace root.`,
      );
    }
    if ((await workspace.fs.stat(canonical.canonicalPath)).type !== "directory") {
      throw new ToolError("not_a_directory", `${label} ${resolved.displayPath} is a file, not a directory. Pass its parent directory as cwd.`);
    }
    return canonical.canonicalPath;
  } catch (error) {
    if (!(error instanceof WorkspaceError)) throw error;
    if (error.code === "out_of_bounds") {
      throw new ToolError(
        "out_of_bounds",
        `${label} ${resolved.displayPath} resolves outside ${bound} on ${workspace.label}; commands run inside the workspace.`,
        {
          details: { workspace: workspace.label },
        },
      );
    }
    throw new ToolError("io", `${label} ${resolved.displayPath} could not be checked on ${workspace.label}: ${error.message}`, {
      details: { workspace: workspace.label, workspaceError: error.code },
    });
  }
}
