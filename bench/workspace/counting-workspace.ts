/**
 * A workspace whose file system and process runner count the calls made to
 * them: the local figures print the count, which says (whatever the
 * machine's load does to the times) whether the tools took their local code
 * paths on a `capabilities.localPaths` workspace (no port call) or went
 * through the port.
 */
import type { ProcessRunner } from "@agent-tools/core";
import type { Workspace, WorkspaceFileSystem } from "@agent-tools/core/workspace";

/** A workspace and the calls made to its ports so far. */
export interface CountingWorkspace {
  readonly workspace: Workspace;
  /** Calls per method name (`fs.readFile`, `processes.spawn`, ...). */
  readonly calls: Map<string, number>;
}

function counting<T extends object>(target: T, prefix: string, calls: Map<string, number>): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver);
      if (typeof value !== "function") return value;
      const name = `${prefix}.${String(property)}`;
      return (...args: unknown[]) => {
        calls.set(name, (calls.get(name) ?? 0) + 1);
        return value.apply(object, args);
      };
    },
  });
}

/** Wraps `workspace` (its close stays the original's). */
export function countingWorkspace(workspace: Workspace): CountingWorkspace {
  const calls = new Map<string, number>();
  const wrapped: Workspace = {
    kind: workspace.kind,
    label: workspace.label,
    root: workspace.root,
    capabilities: workspace.capabilities,
    fs: counting<WorkspaceFileSystem>(workspace.fs, "fs", calls),
    ...(workspace.processes ? { processes: counting<ProcessRunner>(workspace.processes, "processes", calls) } : {}),
    close: () => workspace.close(),
  };
  return { workspace: wrapped, calls };
}
