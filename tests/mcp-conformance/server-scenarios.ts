/**
 * What tests/mcp-conformance-server.test.ts does with each server scenario
 * of `@modelcontextprotocol/conformance`: run it against the shipped
 * `agent-tools-mcp` command, run it against the command with the suite's
 * fixture tools (./server-fixture-tools.ts, test-only), or hold it not
 * applicable to a tools server, with the reason and the fact the test
 * checks instead. A scenario of the installed suite missing here fails the
 * test, so a new suite version is classified, never silently skipped.
 */

/** Which process a scenario runs against. */
export type ServerUnderTest = "command" | "fixture";

/** A scenario the test runs (it passes, or fails as server-baseline.yml expects). */
export interface RunScenario {
  run: ServerUnderTest;
}

/** A scenario that does not apply to a tools server: why, and what the test checks instead. */
export interface NotApplicableScenario {
  notApplicable: string;
  /** The capability the server must not declare (so no client expects the feature), or the scenario's tool the command must not list. */
  check: { capabilityAbsent: "resources" | "prompts" | "completions" } | { toolAbsent: string };
}

/** One scenario's plan. */
export type ServerScenarioPlan = RunScenario | NotApplicableScenario;

const resources: NotApplicableScenario = {
  notApplicable: "resources/* (spec 2025-11-25 server/resources): agent-tools-mcp serves tools only and declares no resources capability",
  check: { capabilityAbsent: "resources" },
};
const prompts: NotApplicableScenario = {
  notApplicable: "prompts/* (spec 2025-11-25 server/prompts): agent-tools-mcp serves tools only and declares no prompts capability",
  check: { capabilityAbsent: "prompts" },
};
const elicitation = (tool: string): NotApplicableScenario => ({
  notApplicable:
    "elicitation/create with a schema the tool chooses (spec 2025-11-25 client/elicitation): an agent-tools tool has no channel to ask the client; the server's only elicitation is its approval question (packages/mcp-server/src/stdio-approval-and-changes.test.ts)",
  check: { toolAbsent: tool },
});

/** Every server scenario of @modelcontextprotocol/conformance 0.1.16, by name. */
export const SERVER_SCENARIOS: Readonly<Record<string, ServerScenarioPlan>> = {
  "server-initialize": { run: "command" },
  "logging-set-level": { run: "command" },
  ping: { run: "command" },
  "completion-complete": {
    notApplicable:
      "completion/complete (spec 2025-11-25 server/utilities/completion) completes prompt and resource-template arguments; agent-tools-mcp has neither and declares no completions capability",
    check: { capabilityAbsent: "completions" },
  },
  "tools-list": { run: "command" },
  "tools-call-simple-text": { run: "fixture" },
  "tools-call-image": { run: "fixture" },
  "tools-call-audio": { run: "fixture" },
  "tools-call-embedded-resource": { run: "fixture" },
  "tools-call-mixed-content": { run: "fixture" },
  "tools-call-with-logging": { run: "fixture" },
  "tools-call-error": { run: "fixture" },
  "tools-call-with-progress": { run: "fixture" },
  "tools-call-sampling": {
    notApplicable:
      "sampling/createMessage during a call (spec 2025-11-25 client/sampling): an agent-tools tool has no channel to the client's model, so the server never asks for sampling",
    check: { toolAbsent: "test_sampling" },
  },
  "tools-call-elicitation": elicitation("test_elicitation"),
  "json-schema-2020-12": { run: "fixture" },
  "elicitation-sep1034-defaults": elicitation("test_elicitation_sep1034_defaults"),
  "server-sse-polling": { run: "fixture" },
  "server-sse-multiple-streams": { run: "command" },
  "elicitation-sep1330-enums": elicitation("test_elicitation_sep1330_enums"),
  "resources-list": resources,
  "resources-read-text": resources,
  "resources-read-binary": resources,
  "resources-templates-read": resources,
  "resources-subscribe": resources,
  "resources-unsubscribe": resources,
  "prompts-list": prompts,
  "prompts-get-simple": prompts,
  "prompts-get-with-args": prompts,
  "prompts-get-embedded-resource": prompts,
  "prompts-get-with-image": prompts,
  "dns-rebinding-protection": { run: "command" },
};

/** True for a scenario the test runs. */
export function isRunScenario(plan: ServerScenarioPlan): plan is RunScenario {
  return "run" in plan;
}
