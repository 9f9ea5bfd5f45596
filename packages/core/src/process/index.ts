export { ExecaProcessRunner } from "./execa-process-runner.js";
export { isProcessAlive, isProcessGroupAlive, killProcessTree, processGroupMembers } from "./process-tree.js";
