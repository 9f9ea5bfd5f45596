/**
 * `createLocalWorkspace`: the Workspace port over this host's own disk and
 * processes. Paths are absolute host paths; files go through the file layer
 * of `@agent-tools/file-io` (descriptor-anchored directories, atomic writes,
 * cross-process locks), processes through {@link ExecaProcessRunner}.
 *
 * The file tools keep their own local code paths when a workspace reports
 * `capabilities.localPaths`; this adapter serves generic callers (hosts,
 * language servers, the contract suite) that speak only the port.
 */
import { statSync } from "node:fs";
import { realpath } from "node:fs/promises";
import path from "node:path";
import { type ProcessRunner, SdkError } from "@agent-tools/core";
import type { Workspace, WorkspaceCapabilities, WorkspaceLock } from "@agent-tools/core/workspace";
import { anchorDirectory } from "@agent-tools/file-io/internal";
import { ExecaProcessRunner } from "../execa-process-runner.js";
import { findOnPath, findRipgrep } from "./find-executable.js";
import { createLocalFileSystem } from "./local-file-system.js";
import { guardProcessRunner } from "./guarded-process-runner.js";

/** Options of {@link createLocalWorkspace}. */
export interface LocalWorkspaceOptions {
  /** An existing directory: the workspace's root (canonicalised with realpath). */
  readonly root: string;
  /**
   * Runs the workspace's processes; default a new {@link ExecaProcessRunner},
   * closed with the workspace. A runner given here belongs to the host and
   * is not closed by the workspace.
   */
  readonly processRunner?: ProcessRunner;
}

const KNOWN_OPTIONS = new Set(["root", "processRunner"]);

function checkOptions(options: LocalWorkspaceOptions): void {
  if (typeof options !== "object" || options === null)
    throw new SdkError("invalid_options", "createLocalWorkspace needs options: { root: '/absolute/directory' }.");
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key))
      throw new SdkError("invalid_options", `createLocalWorkspace: unknown option "${key}"; the options are root and processRunner.`, { option: key });
  }
  if (typeof options.root !== "string" || !path.isAbsolute(options.root)) {
    throw new SdkError(
      "invalid_options",
      `createLocalWorkspace: root must be an absolute directory path (got ${JSON.stringify(options.root)}); resolve a relative one first, e.g. path.resolve(root).`,
      { option: "root" },
    );
  }
  const runner = options.processRunner as Partial<ProcessRunner> | undefined;
  if (runner !== undefined && (typeof runner !== "object" || runner === null || typeof runner.spawn !== "function" || typeof runner.close !== "function")) {
    throw new SdkError("invalid_options", "createLocalWorkspace: processRunner must be a ProcessRunner (spawn and close), e.g. new ExecaProcessRunner().", {
      option: "processRunner",
    });
  }
}

async function canonicalRoot(root: string): Promise<string> {
  let canonical: string;
  try {
    canonical = await realpath(root);
  } catch (error) {
    throw new SdkError(
      "invalid_options",
      `createLocalWorkspace: root ${root} does not exist or cannot be reached (${(error as { code?: string }).code ?? String(error)}).`,
      { option: "root", root },
      { cause: error },
    );
  }
  if (!statSync(canonical).isDirectory())
    throw new SdkError("invalid_options", `createLocalWorkspace: root ${root} is not a directory.`, { option: "root", root });
  return canonical;
}

/** True when directories can be held by descriptor here (Linux with /proc). */
function canAnchor(root: string): boolean {
  const held = anchorDirectory(root);
  held.close();
  return held.anchored;
}

/**
 * A workspace on this host's disk: kind `"local"`, label `file://<root>`,
 * every capability but `pty` (ripgrep and git when found on this host,
 * anchored opens on Linux). Rejects with `SdkError` `invalid_options` when
 * `root` is missing or not a directory.
 *
 * @example
 * const workspace = await createLocalWorkspace({ root: "/home/me/project" });
 * await workspace.fs.writeFileAtomic("/home/me/project/a.txt", Buffer.from("hi\n"));
 * await workspace.close();
 */
export async function createLocalWorkspace(options: LocalWorkspaceOptions): Promise<Workspace> {
  checkOptions(options);
  const root = await canonicalRoot(options.root);
  const ownsRunner = options.processRunner === undefined;
  const runner = options.processRunner ?? new ExecaProcessRunner();
  const locks = new Set<WorkspaceLock>();
  let closing: Promise<void> | undefined;
  const isClosed = () => closing !== undefined;
  const capabilities: WorkspaceCapabilities = Object.freeze({
    localPaths: true,
    processes: true,
    ripgrep: findRipgrep(process.env.PATH, process.cwd()) !== null,
    git: findOnPath("git", process.env.PATH) !== null,
    pty: false,
    anchoredOpens: canAnchor(root),
  });
  const fs = createLocalFileSystem({
    root,
    isClosed,
    trackLock(lock) {
      locks.add(lock);
      return () => locks.delete(lock);
    },
  });
  const close = async () => {
    closing ??= (async () => {
      await Promise.allSettled([...locks].map((lock) => lock.release()));
      if (ownsRunner) await runner.close();
    })();
    return closing;
  };
  return Object.freeze({
    kind: "local",
    label: `file://${root}`,
    root,
    fs,
    processes: guardProcessRunner(runner, { isClosed, ownsRunner }),
    capabilities,
    close,
  });
}
