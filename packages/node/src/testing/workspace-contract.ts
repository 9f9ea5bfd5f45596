/**
 * `runWorkspaceContract`: the vitest suite every Workspace adapter (local
 * disk, memory, SSH, a provider's sandbox) passes, so the tools behave the
 * same on each.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { Workspace } from "@agent-tools/core/workspace";
import { atomicCases, lockCases } from "./workspace-contract-atomic.js";
import { directoryCases, errorCases, fileCases } from "./workspace-contract-files.js";
import { pathCases } from "./workspace-contract-paths.js";
import { closeCases, processCases } from "./workspace-contract-processes.js";
import { type WorkspaceContractContext, type WorkspaceContractTarget, runInWorkspace, shellQuote } from "./workspace-contract-support.js";

export type { WorkspaceContractFixture, WorkspaceContractTarget } from "./workspace-contract-support.js";

/** Options of {@link runWorkspaceContract}. */
export interface WorkspaceContractOptions {
  /**
   * Whether the adapter must run processes. The process cases run whenever
   * a created workspace reports `capabilities.processes` (and are skipped
   * otherwise); giving this also checks that report, so an adapter that
   * lost its processes fails instead of skipping them.
   */
  readonly processes?: boolean;
}

/**
 * The contract every {@link Workspace} adapter must meet, as a vitest suite:
 * files (whole, ranged, streamed, 8 MiB, empty, binary; modes kept on
 * replace; exclusive create), directories, symlinks and the containment
 * check (`resolveInWorkspace` refuses links and `..` leading out of the
 * root; loops are `symlink_loop`; a write to a link replaces the link),
 * error codes, atomic writes (no torn file for a concurrent reader, an
 * aborted write leaves the old file and no temporary file), locks (in one
 * client and across clients), processes (when the adapter has them: output
 * streamed, cwd a workspace path, whole-tree kill, close kills) and close.
 *
 * A crashed writer (`target.crashDuringWrite`) must leave the old file or
 * the new one; it may leave its temporary file behind only as a dotted
 * sidecar of the file (a name starting with `.` that contains the file's
 * name, e.g. `.notes.md.tmp-1234`), as a SIGKILL leaves no chance to clean up.
 *
 * @example
 * runWorkspaceContract("memory", {
 *   create: async () => {
 *     const workspace = createMemoryWorkspace();
 *     await workspace.fs.mkdir("/workspace/scratch");
 *     return { workspace, scratch: "/workspace/scratch" };
 *   },
 *   symlink: (workspace, target, link) => (workspace as MemoryWorkspace).symlink(target, link),
 * });
 */
export function runWorkspaceContract(label: string, target: WorkspaceContractTarget, options: WorkspaceContractOptions = {}): void {
  describe(`Workspace contract: ${label}`, () => {
    const opened: Workspace[] = [];
    const track = (workspace: Workspace): Workspace => {
      opened.push(workspace);
      return workspace;
    };
    const context: WorkspaceContractContext = {
      target,
      track,
      open: async () => {
        const fixture = await target.create();
        track(fixture.workspace);
        return fixture;
      },
      symlink: async (workspace, linkTarget, linkPath) => {
        if (target.symlink !== undefined) return target.symlink(workspace, linkTarget, linkPath);
        if (workspace.processes === undefined) {
          throw new Error(`${label}: the symlink cases need target.symlink (the port has no symlink call) or workspace processes for ln -s`);
        }
        const made = await runInWorkspace(workspace, `ln -s -- ${shellQuote(linkTarget)} ${shellQuote(linkPath)}`, workspace.root);
        if (made.exitCode !== 0) throw new Error(`ln -s ${linkTarget} ${linkPath} failed: ${made.stderr}`);
      },
    };
    afterEach(async () => {
      await Promise.allSettled(opened.splice(0).map((workspace) => workspace.close()));
    });
    afterAll(async () => {
      await target.cleanup?.();
    });

    it("describes itself: kind, label, an absolute root, capabilities", async () => {
      const { workspace, scratch } = await context.open();
      expect(typeof workspace.kind).toBe("string");
      expect(workspace.label.length).toBeGreaterThan(0);
      expect(workspace.root.startsWith("/")).toBe(true);
      expect(scratch.startsWith(workspace.root === "/" ? "/" : `${workspace.root}/`)).toBe(true);
      expect(await workspace.fs.readdir(scratch)).toEqual([]);
      for (const key of ["localPaths", "processes", "ripgrep", "git", "pty", "anchoredOpens"] as const) {
        expect(typeof workspace.capabilities[key]).toBe("boolean");
      }
      if (options.processes !== undefined) expect(workspace.capabilities.processes).toBe(options.processes);
      expect(workspace.processes !== undefined).toBe(workspace.capabilities.processes);
    });

    fileCases(context);
    directoryCases(context);
    pathCases(context);
    errorCases(context);
    atomicCases(context);
    lockCases(context);
    processCases(context);
    closeCases(context);
  });
}
