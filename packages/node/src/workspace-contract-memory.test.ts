import { posix } from "node:path";
import { type MemoryWorkspace, createMemoryWorkspace } from "@agent-tools/core/workspace";
import { runWorkspaceContract } from "./testing/workspace-contract.js";

// The memory workspace has no processes; its second client shares the tree and the lock table.
let scratchCount = 0;
runWorkspaceContract(
  "memory",
  {
    create: async () => {
      const workspace = createMemoryWorkspace({ root: "/home/dev/project" });
      scratchCount += 1;
      const scratch = posix.join(workspace.root, `scratch-${scratchCount}`);
      await workspace.fs.mkdir(scratch);
      return { workspace, scratch };
    },
    symlink: (workspace, target, linkPath) => (workspace as MemoryWorkspace).symlink(target, linkPath),
    secondClient: async (first) => (first as MemoryWorkspace).openClient(),
  },
  { processes: false },
);
