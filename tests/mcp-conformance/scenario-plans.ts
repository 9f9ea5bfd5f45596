/**
 * What the conformance driver does in each client scenario of
 * `@modelcontextprotocol/conformance`, once the scenario's server is loaded:
 * which remote tools it calls, with which arguments. Every scenario first
 * connects and lists the tools (that is the registry loading the server).
 */

/** One remote tool call of a scenario. */
export interface ConformanceToolCall {
  /** The tool's name on the scenario's server. */
  tool: string;
  arguments: Record<string, unknown>;
}

/** The driver's plan for one scenario. */
export interface ConformanceScenarioPlan {
  /** Remote tool calls, in order; a tool the server does not list is skipped. */
  calls: readonly ConformanceToolCall[];
}

const authPlan: ConformanceScenarioPlan = { calls: [{ tool: "test-tool", arguments: {} }] };

const plans: Record<string, ConformanceScenarioPlan> = {
  initialize: { calls: [] },
  tools_call: { calls: [{ tool: "add_numbers", arguments: { a: 5, b: 3 } }] },
  "elicitation-sep1034-client-defaults": { calls: [{ tool: "test_client_elicitation_defaults", arguments: {} }] },
  "sse-retry": { calls: [{ tool: "test_reconnection", arguments: {} }] },
};

/**
 * The plan of a scenario: the table above, or for `auth/*` scenarios a call
 * of the server's `test-tool` (the step-up scenarios ask for more scope on
 * `tools/call` only). Unknown scenarios only connect and list.
 */
export function planForScenario(scenario: string): ConformanceScenarioPlan {
  return plans[scenario] ?? (scenario.startsWith("auth/") ? authPlan : { calls: [] });
}
