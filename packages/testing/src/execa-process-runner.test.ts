import { ExecaProcessRunner } from "@agent-tools/node";
import { ScriptedProcessRunner } from "@agent-tools/core/testing";
import { runProcessRunnerContract, processRunnerContractScript } from "./process-runner-contract.js";

runProcessRunnerContract("ExecaProcessRunner", () => new ExecaProcessRunner(), { tree: true, treeSize: 24 });
runProcessRunnerContract("ScriptedProcessRunner", () => new ScriptedProcessRunner(processRunnerContractScript));
