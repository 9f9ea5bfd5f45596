/**
 * `createMemoryWorkspace`: a {@link Workspace} whose files live in memory,
 * for tests and for hosts that want the tools on a scratch tree without a
 * disk. Files only: it runs no processes.
 */
import { posix } from "node:path";
import { SdkError } from "../errors.js";
import { closestName } from "../registry/closest-name.js";
import { type MemoryClientState, type MemoryStore, closedError, createMemoryFileSystem, makeDirectories, putFile } from "./memory-file-system.js";
import { createMemoryLockTable } from "./memory-locks.js";
import { memoryError, newDirectory, checkPath, touch, walk } from "./memory-tree.js";
import type { Workspace, WorkspaceCapabilities } from "./workspace-port.js";

/** Options of {@link createMemoryWorkspace}. */
export interface MemoryWorkspaceOptions {
  /** The workspace's root (absolute POSIX path, created empty); default `/workspace`. */
  readonly root?: string;
  /**
   * Files to start with: path (relative to `root`, or absolute) to content
   * (text is stored as UTF-8). Missing parent directories are created; files
   * get mode `0o644`.
   */
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
  /** Symlinks to start with: link path (relative to `root`, or absolute) to target text (may dangle). */
  readonly symlinks?: Readonly<Record<string, string>>;
}

/** A memory workspace: a {@link Workspace} plus what only an in-memory tree can offer. */
export interface MemoryWorkspace extends Workspace {
  readonly kind: "memory";
  /**
   * Creates a symlink at `linkPath` (absolute) whose target text is
   * `target` (relative or absolute, may dangle); `exists` when `linkPath`
   * exists. The port itself has no symlink call.
   */
  symlink(target: string, linkPath: string): Promise<void>;
  /**
   * Another client of the same tree and lock table (as a second host on the
   * same disk): its own `close()`, its own locks, which exclude this
   * client's and the other way round.
   */
  openClient(): MemoryWorkspace;
}

const OPTION_KEYS = ["root", "files", "symlinks"];

const CAPABILITIES: WorkspaceCapabilities = Object.freeze({
  localPaths: false,
  processes: false,
  ripgrep: false,
  git: false,
  pty: false,
  // One process, no interleaving inside an operation: nothing can race a symlink in between a check and a use.
  anchoredOpens: true,
});

/**
 * A workspace in memory: directories, files (bytes, modes, mtimes) and
 * symlinks with the semantics of a POSIX disk, atomic writes, and locks
 * shared by the clients of one tree. No processes (`capabilities.processes`
 * false). Paths outside `root` are ordinary paths of the tree; containment is
 * `resolveInWorkspace`'s job, as on every workspace. Modes are stored and
 * reported but not enforced.
 *
 * @example
 * const workspace = createMemoryWorkspace({ files: { "src/a.ts": "export {};\n" } });
 * await workspace.fs.readFile("/workspace/src/a.ts"); // <Buffer 65 78 ...>
 */
export function createMemoryWorkspace(options: MemoryWorkspaceOptions = {}): MemoryWorkspace {
  checkOptions(options);
  const root = options.root === undefined ? "/workspace" : normaliseRoot(options.root);
  const store: MemoryStore = { root: newDirectory(), locks: createMemoryLockTable() };
  makeDirectories(store.root, root, "createMemoryWorkspace");
  for (const [path, content] of Object.entries(options.files ?? {})) {
    if (typeof content !== "string" && !(content instanceof Uint8Array)) {
      throw new SdkError("invalid_options", `createMemoryWorkspace: files[${JSON.stringify(path)}] must be a string or a Uint8Array.`, { option: "files" });
    }
    const target = seedPath(root, path, "files");
    makeDirectories(store.root, posix.dirname(target), "createMemoryWorkspace");
    putFile(store.root, target, Buffer.from(typeof content === "string" ? Buffer.from(content, "utf8") : content), {}, "createMemoryWorkspace");
  }
  for (const [path, target] of Object.entries(options.symlinks ?? {})) {
    if (typeof target !== "string" || target === "") {
      throw new SdkError("invalid_options", `createMemoryWorkspace: symlinks[${JSON.stringify(path)}] must be a non-empty target string.`, {
        option: "symlinks",
      });
    }
    const linkPath = seedPath(root, path, "symlinks");
    makeDirectories(store.root, posix.dirname(linkPath), "createMemoryWorkspace");
    addSymlink(store, target, linkPath);
  }
  return openMemoryClient(store, root);
}

function openMemoryClient(store: MemoryStore, root: string): MemoryWorkspace {
  const state: MemoryClientState = { store, owner: {}, closed: false };
  const workspace: MemoryWorkspace = {
    kind: "memory",
    label: `memory:${root}`,
    root,
    fs: createMemoryFileSystem(state),
    capabilities: CAPABILITIES,
    symlink: async (target, linkPath) => {
      if (state.closed) throw closedError("symlink", linkPath);
      if (typeof target !== "string" || target === "" || target.includes("\0"))
        throw memoryError("io", "symlink", linkPath, "the target must be a non-empty string");
      addSymlink(store, target, checkPath(linkPath, "symlink"));
    },
    openClient: () => {
      if (state.closed) throw closedError("openClient");
      return openMemoryClient(store, root);
    },
    close: async () => {
      if (state.closed) return;
      state.closed = true;
      store.locks.dropOwner(state.owner, () => closedError("lock"));
    },
  };
  return workspace;
}

function addSymlink(store: MemoryStore, target: string, linkPath: string): void {
  const found = walk(store.root, linkPath, false, "symlink");
  if (found.node !== undefined || found.parent === null) throw memoryError("exists", "symlink", linkPath, "already exists");
  found.parent.entries.set(found.name, { type: "symlink", target, mode: 0o777, mtimeMs: Date.now() });
  touch(found.parent);
}

function checkOptions(options: MemoryWorkspaceOptions): void {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new SdkError("invalid_options", "createMemoryWorkspace takes an options object { root?, files?, symlinks? }.");
  }
  for (const key of Object.keys(options)) {
    if (OPTION_KEYS.includes(key)) continue;
    const suggestion = closestName(key, OPTION_KEYS);
    throw new SdkError(
      "invalid_options",
      `createMemoryWorkspace has no option ${JSON.stringify(key.slice(0, 60))}${suggestion === undefined ? "" : `; did you mean \`${suggestion}\`?`} Options: ${OPTION_KEYS.join(", ")}.`,
      { option: key, ...(suggestion === undefined ? {} : { suggestion }) },
    );
  }
  for (const key of ["files", "symlinks"] as const) {
    const value = options[key];
    if (value !== undefined && (value === null || typeof value !== "object" || Array.isArray(value))) {
      throw new SdkError("invalid_options", `createMemoryWorkspace: ${key} must be an object of paths, e.g. { "src/a.ts": "..." }.`, { option: key });
    }
  }
}

function normaliseRoot(root: unknown): string {
  if (typeof root !== "string" || !root.startsWith("/") || root.includes("\0")) {
    throw new SdkError("invalid_options", `createMemoryWorkspace: root must be an absolute POSIX path such as "/workspace", got ${JSON.stringify(root)}.`, {
      option: "root",
    });
  }
  return posix.resolve(root);
}

function seedPath(root: string, path: string, option: string): string {
  const target = posix.resolve(root, path);
  if (path === "" || target === "/") throw new SdkError("invalid_options", `createMemoryWorkspace: ${option} has an empty or root path.`, { option });
  return target;
}
