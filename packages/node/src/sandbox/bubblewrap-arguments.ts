import { realpathSync, statSync } from "node:fs";
import path from "node:path";
import type { SandboxPolicy, SpawnOptions } from "@agent-tools/core";
import { withDescriptorCloser } from "./descriptor-closer.js";
import { listHostUnixSockets } from "./host-unix-sockets.js";

/** The private scratch directory every confined command gets (an empty tmpfs, gone when the command ends). */
export const SANDBOX_PRIVATE_TMP = "/tmp";

/**
 * Directories replaced by an empty tmpfs when the network is off: where host
 * services keep their sockets (`/run/docker.sock`, `/run/postgresql`,
 * `/run/dbus`, `/run/user/<uid>`, ...). `/var/run` counts once when it links to `/run`.
 */
export const SANDBOX_PRIVATE_RUN: readonly string[] = ["/run", "/var/run"];

/**
 * Files of the fresh `/proc` bound read-only over themselves: the kernel's
 * global settings (`/proc/sys`) and the magic SysRq trigger. Their only
 * guard is the owner check, which uid 0 passes without any capability: a
 * root host's command (uid 0 outside too) could otherwise set
 * `kernel.core_pattern` or `kernel.modprobe` to a program of its own, which
 * the kernel then runs as root outside the sandbox, or reboot the machine.
 * Bubblewrap covers them only when it finds them writable before dropping
 * its privileges, which a root host's bubblewrap does not.
 */
export const SANDBOX_READ_ONLY_PROC: readonly string[] = ["/proc/sys", "/proc/sysrq-trigger"];

/**
 * The namespace and privilege flags of every confined command: a user
 * namespace of its own with every capability dropped (also when the host
 * runs as root, where bubblewrap would otherwise keep them all: `umount` and
 * `mount -o remount,rw` would undo the confinement), its own pid, IPC, UTS
 * and (where the kernel has it) cgroup namespace, a new session (no
 * terminal to inject input into through `TIOCSTI`), and death with its parent.
 */
export const BUBBLEWRAP_ISOLATION_FLAGS: readonly string[] = [
  "--unshare-user",
  "--cap-drop",
  "ALL",
  "--unshare-pid",
  "--unshare-ipc",
  "--unshare-uts",
  "--unshare-cgroup-try",
  "--new-session",
  "--die-with-parent",
];

/** Options of {@link buildBubblewrapArguments}. */
export interface BubblewrapArgumentOptions {
  /** How a path is classified; default `statSync`. Missing paths are skipped. */
  kindOf?(absolutePath: string): "directory" | "file" | "missing";
  /** The canonical form of an existing path, undefined when missing; default `realpathSync`. */
  canonicalOf?(absolutePath: string): string | undefined;
  /**
   * The host's path-bound Unix sockets, masked when the network is off unless
   * they lie in a writable root; default {@link listHostUnixSockets} (read now).
   */
  hostSockets?: readonly string[];
  /**
   * The `PATH` the confined command gets: its directories under a private
   * `/run` are bound back read-only (NixOS keeps its programs in
   * `/run/current-system`); default none.
   */
  searchPath?: string;
  /** The environment the confined command gets (the descriptor closer keeps it as is); default the spawn's `env`. */
  environment?: Readonly<Record<string, string | undefined>>;
}

/** `directory`, `file` or `missing` (anything not a directory counts as a file). */
export function pathKind(absolutePath: string): "directory" | "file" | "missing" {
  try {
    return statSync(absolutePath).isDirectory() ? "directory" : "file";
  } catch {
    return "missing";
  }
}

/** The canonical path, or undefined when it does not exist. */
function realpathOrUndefined(absolutePath: string): string | undefined {
  try {
    return realpathSync(absolutePath);
  } catch {
    return undefined;
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

/** What a confined command finds at a path: the host's file system read-only or writable, or something private (tmpfs, fresh /dev and /proc). */
type Access = "read" | "write" | "private";

/** The mounts in bubblewrap order; the deepest one holding a path (the later on a tie) decides what is there. */
class MountPlan {
  private readonly layers: Array<{ target: string; access: Access }> = [];

  add(target: string, access: Access): void {
    this.layers.push({ target, access });
  }

  /** The layers added so far, in order. */
  targets(): ReadonlyArray<{ target: string; access: Access }> {
    return this.layers;
  }

  accessAt(absolutePath: string): Access {
    let found: { target: string; access: Access } | undefined;
    for (const layer of this.layers) {
      if (isInside(layer.target, absolutePath) && (found === undefined || depth(layer.target) >= depth(found.target))) found = layer;
    }
    return found?.access ?? "read";
  }
}

/**
 * The bubblewrap arguments that run one spawn confined:
 *
 * 1. {@link BUBBLEWRAP_ISOLATION_FLAGS} (own user namespace, no capability,
 *    own pid/IPC/UTS/cgroup namespaces, new session) and `--unshare-net`
 *    unless the policy allows the network (only a loopback of its own remains);
 * 2. `--ro-bind / /`: the whole file system read-only; `--dev /dev` and a
 *    fresh `--proc /proc` (of the new pid namespace) whose
 *    {@link SANDBOX_READ_ONLY_PROC} (`/proc/sys`, `/proc/sysrq-trigger`) are read-only;
 * 3. `--tmpfs /tmp`: a private, writable, empty `/tmp` (compilers, package
 *    managers and test runners need scratch space; nothing written there
 *    reaches the host); with the network off also an empty `/run` (and
 *    `/var/run` when it is not a link to `/run`), where host services keep
 *    their sockets; the `searchPath` directories under it are bound back read-only;
 * 4. the read-only and writable roots and the masked directories (an empty
 *    tmpfs, remounted read-only once the roots below it are bound), parents
 *    before children (so a read-only root inside the workspace stays
 *    read-only, a root under `/tmp` is bound on top of the private `/tmp`,
 *    and the roots inside a masked directory show through it); a cwd under
 *    a private directory outside every root is made there as an empty
 *    folder (`--dir`), so `--chdir` finds it and the command still sees
 *    nothing of the host's `/tmp` or `/run` (no file, no socket bound later);
 * 5. with the network off, `/dev/null` over each host Unix socket still
 *    visible read-only (not in a writable root, not under a private
 *    directory), so a service listening on a path cannot be reached; abstract
 *    sockets belong to the network namespace and are cut with it;
 * 6. hidden paths last: an empty tmpfs over a directory, `/dev/null` over a
 *    file; the folders between a writable root and a hidden path, masked
 *    directory or read-only root inside it are bound onto themselves with
 *    the roots, so the command cannot rename them (a mount point cannot be
 *    renamed) and have the next command miss the secret;
 * 7. the command runs through {@link withDescriptorCloser}: only descriptors
 *    0, 1 and 2 reach it, none the host inherited.
 *
 * @example
 * buildBubblewrapArguments({ command: "make", shell: true, cwd: "/work/app" }, { writableRoots: ["/work/app"], hiddenPaths: [], allowNetwork: false });
 * // ["--unshare-user", "--cap-drop", "ALL", ..., "--unshare-net", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--ro-bind-try", "/proc/sys", "/proc/sys", ..., "--tmpfs", "/tmp", "--tmpfs", "/run", "--bind", "/work/app", "/work/app", ...]
 */
export function buildBubblewrapArguments(options: SpawnOptions, policy: SandboxPolicy, extra: BubblewrapArgumentOptions = {}): string[] {
  const kindOf = extra.kindOf ?? pathKind;
  const canonicalOf = extra.canonicalOf ?? realpathOrUndefined;
  const args = [...BUBBLEWRAP_ISOLATION_FLAGS];
  if (!policy.allowNetwork) args.push("--unshare-net");
  args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc");
  for (const entry of SANDBOX_READ_ONLY_PROC) args.push("--ro-bind-try", entry, entry);
  args.push("--tmpfs", SANDBOX_PRIVATE_TMP);
  const plan = new MountPlan();
  plan.add("/", "read");
  for (const fresh of ["/dev", "/proc", SANDBOX_PRIVATE_TMP]) plan.add(fresh, "private");
  const privateRun = policy.allowNetwork ? [] : privateRunDirectories(kindOf, canonicalOf);
  for (const directory of privateRun) {
    args.push("--tmpfs", directory);
    plan.add(directory, "private");
  }
  const mounts = new Map<string, "bind" | "ro-bind">();
  for (const root of policy.readOnlyRoots ?? []) if (kindOf(root) !== "missing") mounts.set(root, "ro-bind");
  // Writable wins over read-only for the same directory.
  for (const root of policy.writableRoots) if (kindOf(root) !== "missing") mounts.set(root, "bind");
  const masked = (policy.maskedDirectories ?? []).filter((directory) => kindOf(directory) === "directory");
  const rootsPlan = new MountPlan();
  for (const root of [SANDBOX_PRIVATE_TMP, ...privateRun]) rootsPlan.add(root, "private");
  // A cwd inside a masked directory stays masked (never bound back).
  for (const root of [...masked, ...mounts.keys()]) rootsPlan.add(root, "read");
  // A cwd under a private directory outside every root is an empty folder made there, never the host's (its files, its sockets bound later).
  const privateCwd = rootsPlan.accessAt(options.cwd) === "private";
  for (const directory of searchPathUnder(extra.searchPath, privateRun)) {
    if (rootsPlan.accessAt(directory) === "private" && kindOf(directory) === "directory") mounts.set(directory, "ro-bind");
  }
  const hidden = policy.hiddenPaths.map((entry) => ({ entry, kind: kindOf(entry) })).filter(({ kind }) => kind !== "missing");
  // Bound with the roots, parents first, so a read-only root below one stays read-only.
  const readOnly = [...mounts].filter(([, kind]) => kind === "ro-bind").map(([root]) => root);
  const covered = [...hidden.map(({ entry }) => entry), ...masked, ...readOnly];
  for (const folder of coverAnchors(covered, layoutOf([...plan.targets()], masked, mounts), mounts)) mounts.set(folder, "bind");
  // A masked directory sorts before a root at the same path (the sort is stable), so the root is bound back on top.
  const ordered = [...masked.map((directory) => [directory, "tmpfs"] as const), ...mounts.entries()].sort(
    ([left], [right]) => depth(left) - depth(right) || left.localeCompare(right),
  );
  for (const [root, kind] of ordered) {
    args.push(...(kind === "tmpfs" ? ["--tmpfs", root] : [`--${kind}`, root, root]));
    plan.add(root, kind === "bind" ? "write" : kind === "tmpfs" ? "private" : "read");
  }
  // Read-only once the roots below are bound (bubblewrap creates their mount points in the empty tmpfs first).
  for (const directory of masked) args.push("--remount-ro", directory);
  if (privateCwd) args.push("--dir", options.cwd);
  for (const { entry } of hidden) plan.add(entry, "private");
  if (!policy.allowNetwork) {
    for (const socket of extra.hostSockets ?? listHostUnixSockets()) {
      if (plan.accessAt(socket) === "read") args.push("--ro-bind", "/dev/null", socket);
    }
  }
  for (const { entry, kind } of hidden) {
    if (kind === "directory") args.push("--tmpfs", entry);
    else args.push("--ro-bind", "/dev/null", entry);
  }
  args.push("--chdir", options.cwd, "--", ...withDescriptorCloser(innerCommand(options), extra.environment ?? options.env ?? {}));
  return args;
}

/** The plan once the private directories (`base`), the masked directories and the roots are mounted, in bubblewrap's order. */
function layoutOf(
  base: ReadonlyArray<{ target: string; access: Access }>,
  masked: readonly string[],
  mounts: ReadonlyMap<string, "bind" | "ro-bind">,
): MountPlan {
  const layout = new MountPlan();
  for (const { target, access } of base) layout.add(target, access);
  for (const directory of masked) layout.add(directory, "private");
  for (const [root, kind] of mounts) layout.add(root, kind === "bind" ? "write" : "read");
  return layout;
}

/**
 * The folders between a writable root and a hidden path, masked directory
 * or read-only root inside it, parents first: each is bound onto itself
 * (same access), because a mount point cannot be renamed. All are found by
 * path at each command, so a command that renamed `~` (in a workspace
 * holding the home), a folder above `.ssh`, above a dataDir inside the
 * workspace or above a read-only root would have the next command find them
 * unhidden (or writable) under the new name; the covered path itself is a
 * mount point already.
 */
function coverAnchors(covered: readonly string[], plan: MountPlan, mounts: ReadonlyMap<string, "bind" | "ro-bind">): string[] {
  const anchors = new Set<string>();
  for (const entry of covered) {
    for (let folder = path.dirname(entry); folder !== path.dirname(folder); folder = path.dirname(folder)) {
      if (plan.accessAt(folder) !== "write" || mounts.get(folder) === "bind") break;
      anchors.add(folder);
    }
  }
  return [...anchors].sort((left, right) => depth(left) - depth(right) || left.localeCompare(right));
}

/** `/run` and `/var/run` as existing canonical directories, each once (`/var/run` usually links to `/run`). */
function privateRunDirectories(
  kindOf: (absolutePath: string) => "directory" | "file" | "missing",
  canonicalOf: (absolutePath: string) => string | undefined,
): string[] {
  const directories = new Set<string>();
  for (const candidate of SANDBOX_PRIVATE_RUN) {
    const canonical = canonicalOf(candidate);
    if (canonical === undefined || canonical === "/" || isInside(SANDBOX_PRIVATE_TMP, canonical) || kindOf(canonical) !== "directory") continue;
    directories.add(canonical);
  }
  return [...directories];
}

/** The absolute directories of a PATH value strictly below one of `parents`. */
function searchPathUnder(searchPath: string | undefined, parents: readonly string[]): string[] {
  if (searchPath === undefined || parents.length === 0) return [];
  const found = new Set<string>();
  for (const entry of searchPath.split(path.delimiter)) {
    if (!path.isAbsolute(entry)) continue;
    const directory = path.normalize(entry).replace(/(.)\/+$/, "$1");
    if (parents.some((parent) => parent !== directory && isInside(parent, directory))) found.add(directory);
  }
  return [...found];
}

function depth(directory: string): number {
  return directory === "/" ? 0 : directory.split("/").length;
}
