/**
 * The permission decision table of issue 35: every row of ./cases (rule
 * set, call, expected decision, written from the documented semantics) runs
 * through `registry.policy.explain` and `executeToolCall` of a real
 * `buildBuiltinToolRegistry` registry in a real temp tree (one per group):
 *
 * - explain answers the row's decision (and its rule and layer when given);
 * - deny: `executeToolCall` fails with `permission_denied`, nobody is asked,
 *   and the tree did not change;
 * - ask: the host's `onAsk` is asked (it declines: the call is refused and
 *   the tree unchanged), and a registry without `onAsk` refuses it;
 * - allow: the tool ran (or failed for its own reasons), never
 *   `permission_denied`, nobody asked.
 *
 * Allowed Bash lines are harmless in the temp workdir (echo, ls, cat, a git
 * command outside any repository); rows whose command must not run are
 * marked `explainOnly`. `POLICY_TABLE_FILTER=<text>` runs only the rows whose
 * name or group contains it.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseGroups } from "./cases/index.js";
import type { Decision, PolicyCase } from "./cases/case-types.js";
import { type FixtureTree, createFixtureTree } from "./fixture-tree.js";
import { KNOWN_FAILURES } from "./known-failures.js";
import { type CaseObservation, runCase } from "./run-case.js";

const filter = process.env.POLICY_TABLE_FILTER ?? "";

function expectedOf(row: PolicyCase, tree: FixtureTree): Decision {
  return tree.caseInsensitive && row.expectedCaseInsensitive !== undefined ? row.expectedCaseInsensitive : row.expected;
}

function errorCode(observed: { result: { isError?: boolean; error?: { code?: string } } }): string | undefined {
  return observed.result.isError ? observed.result.error?.code : undefined;
}

function checkObservation(observation: CaseObservation, expected: Decision): void {
  const { row, explained, executed, withoutOnAsk } = observation;
  const context = JSON.stringify({ call: row.call, permissions: row.permissions, approval: row.approval, explained, open: row.open });
  expect(explained.decision, `explain: ${context}`).toBe(expected);
  if (row.rule !== undefined) expect(explained.rule, `explain rule: ${context}`).toBe(row.rule);
  if (row.layer !== undefined) expect(explained.layer, `explain layer: ${context}`).toBe(row.layer);
  if (executed === undefined) return;
  const ran = JSON.stringify(executed.result).slice(0, 600);
  if (expected === "allow") {
    expect(errorCode(executed), `allowed call refused: ${ran}`).not.toBe("permission_denied");
    expect(executed.asked, "an allowed call asked the host").toHaveLength(0);
    return;
  }
  expect(errorCode(executed), `${expected} call not refused: ${ran}`).toBe("permission_denied");
  expect(executed.treeChanged, `a refused call changed the tree: ${ran}`).toBe(false);
  if (expected === "deny") {
    expect(executed.asked, "a denied call asked the host").toHaveLength(0);
    return;
  }
  // The registry resolves a name in another case to the canonical one, which is what the host is asked about.
  expect(
    executed.asked.map((request) => request.toolName.toLowerCase()),
    "an ask call did not ask the host",
  ).toEqual([row.call.tool.toLowerCase()]);
  expect(withoutOnAsk && errorCode(withoutOnAsk), "an ask call ran without onAsk").toBe("permission_denied");
  expect(withoutOnAsk?.treeChanged, "an ask call without onAsk changed the tree").toBe(false);
}

describe.each(caseGroups.map((group) => [group.group, group] as const))("permission table: %s", (_name, group) => {
  let tree: FixtureTree;
  beforeAll(() => {
    tree = createFixtureTree(group.group.replace(/\W+/g, "-"));
  });
  afterAll(() => fs.rmSync(tree.root, { recursive: true, force: true }));

  group.cases.forEach((row, index) => {
    const wanted = filter === "" || row.name.includes(filter) || group.group.includes(filter);
    const known = KNOWN_FAILURES[`${group.group}/${row.name}`];
    const test = !wanted ? it.skip : known === undefined ? it : it.fails;
    test(`${index}: ${row.name} -> ${row.expected}${row.explainOnly ? " (explain only)" : ""}${known ? ` [known failure: ${known}]` : ""}`, async () => {
      const observation = await runCase(row, index, tree, { mcp: group.mcp === true });
      checkObservation(observation, expectedOf(row, tree));
    });
  });
});

describe("the table itself", () => {
  it("lists known failures only for rows that exist", () => {
    const names = new Set(caseGroups.flatMap((group) => group.cases.map((row) => `${group.group}/${row.name}`)));
    expect(Object.keys(KNOWN_FAILURES).filter((key) => !names.has(key))).toEqual([]);
  });

  it("holds at least 300 rows with unique names per group, every decision represented", () => {
    const rows = caseGroups.flatMap((group) => group.cases);
    expect(rows.length).toBeGreaterThanOrEqual(300);
    for (const group of caseGroups) expect(new Set(group.cases.map((row) => row.name)).size, group.group).toBe(group.cases.length);
    for (const decision of ["allow", "ask", "deny"]) expect(rows.filter((row) => row.expected === decision).length).toBeGreaterThan(50);
  });
});
