/**
 * @agent-tools/node: the Node adapter of the ProcessRunner port
 * (`ExecaProcessRunner`: own process group, tree kill, a watchdog that ends
 * the trees when the host exits) and the process-tree helpers it uses.
 *
 * @packageDocumentation
 */
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
