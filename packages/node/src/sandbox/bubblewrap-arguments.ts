import { statSync } from "node:fs";
import path from "node:path";
import type { SandboxPolicy, SpawnOptions } from "@agent-tools/core";

/** The private scratch directory every confined command gets (an empty tmpfs, gone when the command ends). */
export const SANDBOX_PRIVATE_TMP = "/tmp";

/** Options of {@link buildBubblewrapArguments}. */
export interface BubblewrapArgumentOptions {
  /** How a path is classified; default `statSync`. Missing paths are skipped. */
  kindOf?(absolutePath: string): "directory" | "file" | "missing";
}

/** `directory`, `file` or `missing` (anything not a directory counts as a file). */
export function pathKind(absolutePath: string): "directory" | "file" | "missing" {
  try {
    return statSync(absolutePath).isDirectory() ? "directory" : "file";
  } catch {
    return "missing";
  }
}

/** True when `child` is `parent` or below it. */
function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** The program and arguments bubblewrap runs inside the sandbox. */
function innerCommand(options: SpawnOptions): string[] {
  if (options.shell) {
    const shell = options.shell === true ? "/bin/bash" : options.shell;
    return [shell, "-c", options.command];
  }
  return [options.command, ...(options.args ?? [])];
}

/**
 * The bubblewrap arguments that run one spawn confined:
 *
 * 1. `--ro-bind / /`: the whole file system read-only; `--dev /dev` and a
 *    fresh `--proc /proc` (of the new pid namespace);
 * 2. `--tmpfs /tmp`: a private, writable, empty `/tmp` (compilers, package
 *    managers and test runners need scratch space; nothing written there
 *    reaches the host);
 * 3. the read-only and writable roots, parents before children (so a
 *    read-only root inside the workspace stays read-only, and a root under
 *    `/tmp` is bound on top of the private `/tmp`); the cwd is bound
 *    read-only when it lies under `/tmp` outside every root, so `--chdir`
 *    finds it;
 * 4. hidden paths last: an empty tmpfs over a directory, `/dev/null` over a file;
 * 5. `--unshare-net` unless the policy allows the network (only a loopback
 *    of its own remains), `--unshare-pid` (killing bubblewrap's pid 1 ends
 *    every process inside) and `--die-with-parent`.
 *
 * No `--new-session`: the process runner already starts bubblewrap in a
 * session of its own without a controlling terminal (so there is no
 * terminal to inject input into), and keeping the command in bubblewrap's
 * process group lets the runner's group kill reach it directly.
 *
 * @example
 * buildBubblewrapArguments({ command: "make", shell: true, cwd: "/work/app" }, { writableRoots: ["/work/app"], hiddenPaths: [], allowNetwork: false });
 * // ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--bind", "/work/app", "/work/app", "--unshare-net", ...]
 */
export function buildBubblewrapArguments(options: SpawnOptions, policy: SandboxPolicy, extra: BubblewrapArgumentOptions = {}): string[] {
  const kindOf = extra.kindOf ?? pathKind;
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", SANDBOX_PRIVATE_TMP];
  const mounts = new Map<string, "bind" | "ro-bind">();
  for (const root of policy.readOnlyRoots ?? []) if (kindOf(root) !== "missing") mounts.set(root, "ro-bind");
  // Writable wins over read-only for the same directory.
  for (const root of policy.writableRoots) if (kindOf(root) !== "missing") mounts.set(root, "bind");
  const underPrivateTmp = isInside(SANDBOX_PRIVATE_TMP, options.cwd);
  if (underPrivateTmp && ![...mounts.keys()].some((root) => isInside(root, options.cwd)) && kindOf(options.cwd) === "directory") {
    mounts.set(options.cwd, "ro-bind");
  }
  const ordered = [...mounts.entries()].sort(([left], [right]) => depth(left) - depth(right) || left.localeCompare(right));
  for (const [root, kind] of ordered) args.push(`--${kind}`, root, root);
  for (const hidden of policy.hiddenPaths) {
    const kind = kindOf(hidden);
    if (kind === "directory") args.push("--tmpfs", hidden);
    else if (kind === "file") args.push("--ro-bind", "/dev/null", hidden);
  }
  if (!policy.allowNetwork) args.push("--unshare-net");
  args.push("--unshare-pid", "--die-with-parent", "--chdir", options.cwd, "--", ...innerCommand(options));
  return args;
}

function depth(directory: string): number {
  return directory === "/" ? 0 : directory.split("/").length;
}
