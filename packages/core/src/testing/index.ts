/**
 * @agent-tools/core/testing: in-memory and scripted fakes of the ports, for
 * tests of tools and hosts. Imports no test runner; the contract suites that
 * need vitest are in `@agent-tools/testing`.
 *
 * @packageDocumentation
 */
export { ScriptedProcessRunner } from "./scripted-process-runner.js";
export type { ProcessScript, ScriptedProcessController } from "./scripted-process-runner.js";
export { RecordingGitClient } from "../git/recording-git-client.js";
export type { RecordedGitCall } from "../git/recording-git-client.js";
export { ScriptedModelClient } from "../model/scripted-model-client.js";
export type { ScriptedModelClientOptions, ScriptedModelResponse, ScriptedModelStep, ScriptedToolCall } from "../model/scripted-model-client.js";
