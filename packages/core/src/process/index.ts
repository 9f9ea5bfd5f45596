export { ExecaProcessRunner } from "./execa-process-runner.js";
export {
  PROCESS_TREE_TAG_VARIABLE,
  findProcessTree,
  findProcessTrees,
  isProcessAlive,
  isProcessGroupAlive,
  isProcessTreeAlive,
  processGroupMembers,
  readProcessInfo,
  readProcessTable,
  readProcessTreeTag,
} from "./process-tree.js";
export type { ProcessInfo, ProcessTreeSelector } from "./process-tree.js";
export { ProcessTreeKiller, killProcessTree } from "./process-tree-killer.js";
