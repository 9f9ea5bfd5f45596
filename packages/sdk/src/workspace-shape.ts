/**
 * The shape check of the registry's `workspace` option: a Workspace whose
 * file system lacks a method, or whose capabilities are not booleans, fails
 * the build naming what is wrong, rather than failing later inside a tool
 * call or, worse, being taken for the host's own disk (a `localPaths` of
 * `"false"` is truthy, and the tools would read and write this host's files).
 */
import { SdkError } from "@agent-tools/core";

/** Every method of `WorkspaceFileSystem`. */
const FS_METHODS = [
  "stat",
  "lstat",
  "readFile",
  "readStream",
  "writeFileAtomic",
  "rename",
  "unlink",
  "mkdir",
  "rmdir",
  "readdir",
  "realpath",
  "readlink",
  "lock",
] as const;

/** Every flag of `WorkspaceCapabilities`. */
const CAPABILITIES = ["localPaths", "processes", "ripgrep", "git", "pty", "anchoredOpens"] as const;

const EXAMPLE = "e.g. createLocalWorkspace(...) of @agent-tools/node or createMemoryWorkspace(...) of @agent-tools/core/workspace";

function fail(problem: string): never {
  throw new SdkError("invalid_options", `workspace ${problem}; pass a Workspace ({ kind, label, root, fs, capabilities, close }), ${EXAMPLE}.`, {
    option: "workspace",
  });
}

/**
 * Throws `SdkError` (`invalid_options`, option `workspace`) unless `workspace`
 * has the Workspace shape: `root` an absolute path, `label` a string, every
 * file-system method, every capability a boolean, `close`, and a
 * `processes` runner when `capabilities.processes` is true.
 */
export function checkWorkspaceShape(workspace: unknown): void {
  if (workspace === null || typeof workspace !== "object") fail(`must be an object, not ${workspace === null ? "null" : typeof workspace}`);
  const candidate = workspace as Record<string, unknown>;
  if (typeof candidate.root !== "string" || !candidate.root.startsWith("/") || candidate.root.includes("\0"))
    fail("root must be an absolute path of the workspace");
  if (typeof candidate.label !== "string") fail("label must be a string");
  if (typeof candidate.close !== "function") fail("close must be a function");
  const fs = candidate.fs as Record<string, unknown> | null | undefined;
  if (fs === null || typeof fs !== "object") fail("fs must be a WorkspaceFileSystem object");
  const missing = FS_METHODS.filter((method) => typeof fs[method] !== "function");
  if (missing.length > 0) fail(`fs lacks ${missing.map((method) => `fs.${method}`).join(", ")}`);
  const capabilities = candidate.capabilities as Record<string, unknown> | null | undefined;
  if (capabilities === null || typeof capabilities !== "object") fail("capabilities must be a WorkspaceCapabilities object");
  for (const flag of CAPABILITIES) {
    if (typeof capabilities[flag] !== "boolean") fail(`capabilities.${flag} must be true or false (got ${JSON.stringify(capabilities[flag]) ?? "undefined"})`);
  }
  if (capabilities.processes === true) {
    const processes = candidate.processes as { spawn?: unknown } | null | undefined;
    if (processes === null || typeof processes !== "object" || typeof processes.spawn !== "function")
      fail("capabilities.processes is true but processes is not a ProcessRunner (spawn)");
  }
}
