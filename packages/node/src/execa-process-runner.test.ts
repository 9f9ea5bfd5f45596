import { ExecaProcessRunner } from "./execa-process-runner.js";
import { ScriptedProcessRunner } from "@agent-tools/core/testing";
import { runProcessRunnerContract, processRunnerContractScript } from "./testing/process-runner-contract.js";

runProcessRunnerContract("ExecaProcessRunner", () => new ExecaProcessRunner(), { tree: true, treeSize: 24 });
runProcessRunnerContract("ScriptedProcessRunner", () => new ScriptedProcessRunner(processRunnerContractScript), { stdinBackPressure: false });
