import { ExecaProcessRunner } from "./execa-process-runner.js";
import { ScriptedProcessRunner } from "../testing/scripted-process-runner.js";
import { describeProcessRunnerContract, processRunnerContractScript } from "../testing/process-runner-contract.js";

describeProcessRunnerContract("ExecaProcessRunner", () => new ExecaProcessRunner(), { tree: true, treeSize: 24 });
describeProcessRunnerContract("ScriptedProcessRunner", () => new ScriptedProcessRunner(processRunnerContractScript));
