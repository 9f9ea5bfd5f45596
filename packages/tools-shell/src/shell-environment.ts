import { existsSync, statSync } from "node:fs";
import { type ToolContext, ToolError } from "@agent-tools/core";

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
 */
export function resolveCommandCwd(context: ToolContext, cwd: string | undefined, label: string): string {
  if (cwd === undefined || cwd.trim() === "") return context.workdir;
  if (cwd.includes("\u0000")) {
    throw new ToolError(
      "invalid_arguments",
      `${label} contains a NUL byte; NUL bytes cannot be passed to a shell command as its working directory. Pass a plain directory path, or omit cwd to run in the workspace root.`,
      { details: { guard: "nul" } },
    );
  }
  const resolved = context.paths.resolve(cwd, { intent: "cwd", label, allowExternal: true });
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
