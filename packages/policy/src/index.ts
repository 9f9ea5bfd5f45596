/**
 * @agent-tools/policy: permission rules with specifiers, modes and layers,
 * lifecycle hooks, and a simulator that explains every decision.
 */
export {};
