/**
 * @agent-tools/core/testing: in-memory and scripted fakes of the ports, for
 * tests of tools and hosts. Imports no test runner; the contract suites that
 * need vitest are at the `/testing` entry of the package that owns each
 * port's adapters (node, git, models, storage, tools-tasks).
 *
 * @packageDocumentation
 */
export { ScriptedProcessRunner } from "./scripted-process-runner.js";
export type { ProcessScript, ScriptedProcessController } from "./scripted-process-runner.js";
export { RecordingGitClient } from "../git/recording-git-client.js";
export type { RecordedGitCall } from "../git/recording-git-client.js";
export { ScriptedModelClient } from "../model/scripted-model-client.js";
export type { ScriptedModelClientOptions, ScriptedModelResponse, ScriptedModelStep, ScriptedToolCall } from "../model/scripted-model-client.js";
