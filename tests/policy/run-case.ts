/**
 * Runs one row of the decision table on a real registry of
 * `buildBuiltinToolRegistry`: `registry.policy.explain`, then
 * `executeToolCall` with an `onAsk` that records the question and declines,
 * and for `ask` rows a second registry without `onAsk` (which must refuse).
 * Returns what it saw; the test compares it with the row.
 */
import { fileURLToPath } from "node:url";
import type { ApprovalRequest, ToolResult } from "../../packages/core/src/index.js";
import { type BuiltinToolRegistry, buildBuiltinToolRegistry } from "../../packages/sdk/src/index.js";
import type { PolicyCase } from "./cases/case-types.js";
import { type FixtureTree, applySetup, snapshotTree, substituteTokens } from "./fixture-tree.js";

const MCP_SERVER = fileURLToPath(new URL("./mcp-fixture-server.mjs", import.meta.url));

/** What one row produced. */
export interface CaseObservation {
  /** The row after token replacement. */
  row: PolicyCase;
  explained: { decision: string; rule?: string; layer?: string; reason?: string };
  /** Absent for explain-only rows the runner did not execute. */
  executed?: { result: ToolResult; asked: readonly ApprovalRequest[]; treeChanged: boolean };
  /** The `ask` row on a registry without `onAsk`. */
  withoutOnAsk?: { result: ToolResult; treeChanged: boolean };
}

function mcpOption(tree: FixtureTree) {
  const server = (id: string) => ({
    id,
    enabled: true,
    transport: "stdio",
    command: process.execPath,
    args: [MCP_SERVER, id, tree.markers],
    timeoutMs: 20_000,
  });
  return { getSettings: () => ({ servers: [server("github"), server("gitlab")], selected: [] }) as never };
}

async function buildFor(
  row: PolicyCase,
  tree: FixtureTree,
  extras: { mcp: boolean; onAsk?: (request: ApprovalRequest) => boolean },
): Promise<BuiltinToolRegistry> {
  return buildBuiltinToolRegistry({
    workdir: tree.work,
    dataDir: tree.data,
    memory: false,
    additionalRoots: [{ alias: "shared", path: tree.extra, access: "read" }],
    permissions: row.permissions as never,
    approval: { ...row.approval, ...(extras.onAsk === undefined ? {} : { onAsk: extras.onAsk }) },
    ...(extras.mcp ? { mcp: mcpOption(tree) } : {}),
  });
}

async function using<T>(registry: BuiltinToolRegistry, use: (registry: BuiltinToolRegistry) => Promise<T>): Promise<T> {
  try {
    return await use(registry);
  } finally {
    await registry.close();
  }
}

async function executeWatched(registry: BuiltinToolRegistry, row: PolicyCase, tree: FixtureTree, id: string) {
  const before = snapshotTree(tree);
  const result = await registry.executeToolCall({ id, name: row.call.tool, arguments: row.call.input as Record<string, unknown> });
  return { result, treeChanged: snapshotTree(tree) !== before };
}

/** Runs row `index` of a group in `tree`. */
export async function runCase(given: PolicyCase, index: number, tree: FixtureTree, options: { mcp: boolean }): Promise<CaseObservation> {
  const row = substituteTokens(given, tree, index);
  applySetup(tree, row.setup);
  const asked: ApprovalRequest[] = [];
  const onAsk = (request: ApprovalRequest) => {
    asked.push(request);
    return false;
  };
  const observation = await using(await buildFor(row, tree, { mcp: options.mcp, onAsk }), async (registry) => {
    const explanation = await registry.policy.explain({ name: row.call.tool, arguments: row.call.input, id: `explain-${index}` });
    const explained = {
      decision: explanation.decision,
      ...(explanation.rule === undefined ? {} : { rule: explanation.rule }),
      ...(explanation.layer === undefined ? {} : { layer: explanation.layer }),
      ...(explanation.reason === undefined ? {} : { reason: explanation.reason }),
    };
    // An explain-only row runs only when explain already refuses it (then the executor's gate must refuse it too).
    const runnable = row.explainOnly === undefined || (row.expected !== "allow" && explained.decision === row.expected);
    if (!runnable) return { row, explained };
    const executed = await executeWatched(registry, row, tree, `call-${index}`);
    return { row, explained, executed: { ...executed, asked: [...asked] } };
  });
  if (row.expected !== "ask" || observation.executed === undefined) return observation;
  const withoutOnAsk = await using(await buildFor(row, tree, { mcp: options.mcp }), (registry) => executeWatched(registry, row, tree, `plain-${index}`));
  return { ...observation, withoutOnAsk };
}
