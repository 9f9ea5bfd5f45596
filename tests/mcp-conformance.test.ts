/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`)
 * against our MCP client: every client scenario's server is driven by
 * tests/mcp-conformance/client.ts, which goes through
 * `buildBuiltinToolRegistry` and `executeToolCall` like a host would. The
 * suite needs Node 22, so it runs from compat/mcp-conformance (its own npm
 * lock, Node 22 from the npm package `node`, installed by scripts/setup.sh);
 * the driver runs on this Node. A scenario fails the test when the runner
 * exits non-zero: a failed or warning check not expected by
 * tests/mcp-conformance/baseline.yml, or a baseline entry that now passes.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  type ClientScenario,
  compatMissing,
  describeRun,
  listClientScenarios,
  readBaseline,
  repositoryRoot,
  runScenario,
} from "./mcp-conformance/run-conformance.js";

/** Scenarios whose checks measure time: they run one at a time, before the others. */
const TIMED_SCENARIOS = new Set(["sse-retry"]);
const missing = compatMissing();
const scenarios: ClientScenario[] = missing ? [] : listClientScenarios();
const base = mkdtempSync(path.join(os.tmpdir(), "agent-tools-conformance-results-"));

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

describe("MCP conformance suite, client scenarios", () => {
  it("has the suite installed", () => {
    if (missing) expect.fail(missing);
    expect(scenarios.map((scenario) => scenario.name)).toEqual(expect.arrayContaining(["initialize", "tools_call", "auth/metadata-default"]));
  });

  it("expects failures only of draft or extension scenarios, each justified in docs/mcp.md", () => {
    if (missing) expect.fail(missing);
    const docs = readFileSync(path.join(repositoryRoot, "docs", "mcp.md"), "utf8");
    const conformance = docs.split(/^## Conformance\s*$/m)[1]?.split(/^## /m)[0] ?? "";
    expect(conformance, "docs/mcp.md needs a '## Conformance' section").not.toBe("");
    for (const name of readBaseline()) {
      const scenario = scenarios.find((candidate) => candidate.name === name);
      expect(scenario, `baseline entry ${name} is no client scenario of the installed suite`).toBeDefined();
      expect(
        scenario?.tags.some((tag) => tag === "draft" || tag === "extension"),
        `baseline entry ${name} is neither draft nor extension`,
      ).toBe(true);
      expect(conformance, `docs/mcp.md, section Conformance, must say why ${name} is expected to fail`).toContain(`\`${name}\``);
    }
  });

  it("fails with the scenario and its failed checks when the client does not do its part", async () => {
    if (missing) expect.fail(missing);
    // A client that exits at once: tools_call's add_numbers is never called.
    const run = await runScenario("tools_call", mkdtempSync(path.join(base, "run-")), { command: `${process.execPath} -e 0` });
    expect(run.exitCode).not.toBe(0);
    const summary = describeRun(run);
    expect(summary).toContain("tools_call: the runner exited 1");
    expect(summary).toContain("FAILURE tool-add-numbers (ToolAddNumbers)");
    expect(summary).toContain("✗ tools_call");
  }, 120_000);

  // sse-retry checks that the client reconnects 500 ms after the stream closed (200 ms late at most): alone, before the rest.
  const timed = scenarios.filter((scenario) => TIMED_SCENARIOS.has(scenario.name)).map((scenario) => scenario.name);
  it.each(timed)(
    "%s passes (run alone: the suite checks its reconnection delay)",
    async (name) => {
      const run = await runScenario(name, mkdtempSync(path.join(base, "run-")));
      if (run.exitCode !== 0) expect.fail(describeRun(run));
    },
    120_000,
  );

  // A few at a time: each run starts the suite's runner (Node 22) and the driver (tsx) on two shared cores.
  const rest = scenarios.filter((scenario) => !TIMED_SCENARIOS.has(scenario.name)).map((scenario) => scenario.name);
  it.concurrent.each(rest)(
    "%s passes (or fails as the baseline expects)",
    async (name) => {
      const run = await runScenario(name, mkdtempSync(path.join(base, "run-")));
      if (run.exitCode !== 0) expect.fail(describeRun(run));
    },
    120_000,
  );
});
