import type { ToolConcurrencyOptions } from "@agent-tools/core";

/**
 * Parallel calls per tool name in a registry of `buildBuiltinToolRegistry`
 * unless the host passes `concurrency`: Agent 8, Bash 4, every other tool 2.
 * Calls past a limit wait in FIFO order (after validation and approval).
 *
 * @example
 * await buildBuiltinToolRegistry({ workdir, concurrency: { ...BUILTIN_TOOL_CONCURRENCY, limits: { ...BUILTIN_TOOL_CONCURRENCY.limits, Read: 8 } } });
 */
export const BUILTIN_TOOL_CONCURRENCY: Readonly<Required<ToolConcurrencyOptions>> = Object.freeze({
  limits: Object.freeze({ Agent: 8, Bash: 4 }),
  defaultLimit: 2,
});
