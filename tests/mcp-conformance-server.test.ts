/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`,
 * Node 22 from compat/mcp-conformance) against our MCP server,
 * `agent-tools-mcp` over Streamable HTTP on 127.0.0.1, as real processes:
 *
 * - "command": the shipped command (packages/mcp-server/src/cli/main.ts
 *   through tsx), exactly the tools a user gets;
 * - "fixture": the same `runMcpCli` with the suite's fixture tools added
 *   (tests/mcp-conformance/server-fixture-tools.ts: `test_simple_text`,
 *   `test_tool_with_progress`, ...). These tools exist ONLY in this test; the
 *   scenarios that call them by name check how the server carries a tool's
 *   content, updates, errors and schema, not the fixture.
 *
 * Every server scenario of the installed suite is classified in
 * tests/mcp-conformance/server-scenarios.ts: each one that applies runs as
 * its own test and fails on a failed or warning check not expected by
 * tests/mcp-conformance/server-baseline.yml, or on a baseline entry that now
 * passes; each one that does not apply (resources, prompts, completion,
 * sampling and elicitation from a tool) has a test stating why and checking
 * that the server indeed offers no such thing.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compatMissing, describeRun, repositoryRoot } from "./mcp-conformance/run-conformance.js";
import { type RunningServer, describeServer, listServerScenarios, readServerBaseline, runServerScenario, startServer } from "./mcp-conformance/server-run.js";
import { type NotApplicableScenario, SERVER_SCENARIOS, type ServerUnderTest, isRunScenario } from "./mcp-conformance/server-scenarios.js";

const missing = compatMissing();
const listed = missing ? [] : listServerScenarios().map((scenario) => scenario.name);
const planned = Object.entries(SERVER_SCENARIOS);
const runs = planned.filter(([, plan]) => isRunScenario(plan)).map(([name, plan]) => ({ name, server: (plan as { run: ServerUnderTest }).run }));
const notApplicable = planned.filter(([, plan]) => !isRunScenario(plan)) as Array<[string, NotApplicableScenario]>;
const base = mkdtempSync(path.join(os.tmpdir(), "agent-tools-conformance-server-results-"));
const servers: Partial<Record<ServerUnderTest, RunningServer>> = {};

beforeAll(async () => {
  if (missing) return;
  const [command, fixture] = await Promise.allSettled([startServer("command"), startServer("fixture")]);
  if (command.status === "fulfilled") servers.command = command.value;
  if (fixture.status === "fulfilled") servers.fixture = fixture.value;
  for (const outcome of [command, fixture]) if (outcome.status === "rejected") throw outcome.reason;
}, 120_000);

afterAll(async () => {
  await Promise.allSettled(Object.values(servers).map((server) => server?.stop()));
  rmSync(base, { recursive: true, force: true });
});

function server(which: ServerUnderTest): RunningServer {
  const running = servers[which];
  if (!running) expect.fail(`the ${which} server did not start`);
  return running;
}

describe("MCP conformance suite, server scenarios (agent-tools-mcp over Streamable HTTP)", () => {
  it("has the suite installed and a plan for each of its server scenarios", () => {
    if (missing) expect.fail(missing);
    expect(listed).toEqual(expect.arrayContaining(["server-initialize", "tools-call-with-progress", "dns-rebinding-protection"]));
    const unplanned = listed.filter((name) => !(name in SERVER_SCENARIOS));
    expect(unplanned, "server scenarios of the installed suite with no plan in tests/mcp-conformance/server-scenarios.ts").toEqual([]);
    const gone = planned.map(([name]) => name).filter((name) => !listed.includes(name));
    expect(gone, "planned scenarios the installed suite no longer has").toEqual([]);
  });

  it("expects failures only of scenarios it runs, each with a reason in the baseline and in docs/mcp-server-conformance.md", () => {
    const conformance = readFileSync(path.join(repositoryRoot, "docs", "mcp-server-conformance.md"), "utf8");
    for (const { name, reason } of readServerBaseline()) {
      expect(
        runs.some((run) => run.name === name),
        `baseline entry ${name} is not a scenario this test runs`,
      ).toBe(true);
      expect(reason, `server-baseline.yml: the comment above ${name} must say why it fails`).toMatch(new RegExp(`^${name} \\(.{20,}`));
      expect(conformance, `docs/mcp-server-conformance.md must say why ${name} is expected to fail`).toContain(`\`${name}\``);
    }
  });

  it.concurrent("fails a scenario whose tool the server does not serve, naming the failed check", async () => {
    if (missing) expect.fail(missing);
    // The shipped command has no test_image_content: the suite's call gets an isError result with no image.
    const run = await runServerScenario("tools-call-image", server("command").url, mkdtempSync(path.join(base, "run-")));
    expect(run.exitCode).not.toBe(0);
    const summary = describeRun(run);
    expect(summary).toContain("FAILURE tools-call-image (ToolsCallImage)");
    expect(summary).toContain("✗ tools-call-image");
  }, 120_000);

  it.concurrent("notices a check the suite passed on an isError answer (why each run also looks at the results)", async () => {
    if (missing) expect.fail(missing);
    // tools-call-simple-text accepts any text: the command's "Unknown tool: test_simple_text ..." passes the suite.
    const run = await runServerScenario("tools-call-simple-text", server("command").url, mkdtempSync(path.join(base, "run-")));
    expect(run.exitCode).toBe(0);
    const result = run.checks.find((check) => check.id === "tools-call-simple-text")?.details?.result as { isError?: boolean } | undefined;
    expect(result?.isError).toBe(true);
  }, 120_000);

  it.concurrent.each(runs)(
    "$name passes against the $server server (or fails as the baseline expects)",
    async ({ name, server: which }) => {
      if (missing) expect.fail(missing);
      const run = await runServerScenario(name, server(which).url, mkdtempSync(path.join(base, "run-")));
      if (run.exitCode !== 0) expect.fail(`${describeRun(run)}\n  server stderr (last lines):\n${server(which).stderr().split("\n").slice(-10).join("\n")}`);
      // Some checks pass on any text answer (tools-call-simple-text accepts "Unknown tool: ..."): a passed
      // check must not rest on an isError result, except where the scenario asks for one.
      if (name !== "tools-call-error" && !readServerBaseline().some((entry) => entry.name === name)) {
        const erroneous = run.checks.filter(
          (check) => check.status === "SUCCESS" && (check.details?.result as { isError?: unknown } | undefined)?.isError === true,
        );
        expect(
          erroneous.map((check) => check.id),
          `${name}: checks passed on an isError tool result`,
        ).toEqual([]);
      }
    },
    120_000,
  );

  it.each(notApplicable.map(([name, plan]) => ({ name, reason: plan.notApplicable, check: plan.check })))(
    "$name does not apply: $reason",
    async ({ check }) => {
      if (missing) expect.fail(missing);
      const { capabilities, tools } = await describeServer(server("command").url);
      expect(capabilities.tools, "the server must answer initialize with the tools capability").toBeDefined();
      if ("capabilityAbsent" in check)
        expect(capabilities[check.capabilityAbsent], `the server declares ${check.capabilityAbsent}: run this scenario`).toBeUndefined();
      else expect(tools, `the command serves ${check.toolAbsent}: run this scenario`).not.toContain(check.toolAbsent);
      expect(tools.length).toBeGreaterThan(0);
    },
    60_000,
  );
});
