/**
 * Issue 39, McpManager and a server the host denies (finding F14 of the
 * attack round, kept as a guard since its fix): restart, test, tools and
 * diagnose of a `server:<id>`-denied server start no process of it.
 */
import { afterAll, describe, expect, it } from "vitest";
import { attackRoot, call, recordedPids, recordedRequests, serverPolicy, withHostileRegistry } from "./mcp-hostile-harness.js";

const root = attackRoot("attack-mcp-manager-deny-");
afterAll(() => root.cleanup());

describe("attack: McpManager runtime actions on a denied server", () => {
  it("(was F14) with server:<id> deny, McpManager restart/test/tools/diagnose start no process of that server", async () => {
    await withHostileRegistry(
      {
        root: root.dir,
        label: "deny",
        behaviour: { resources: true, tools: [] },
        extra: serverPolicy("deny"),
      },
      async ({ registry, records }) => {
        const before = recordedPids(records).length;
        await call(registry, "McpManager", { action: "stop", server_id: "hostile" });
        const startsAfterStop = recordedPids(records).length;
        for (const action of ["restart", "test", "tools", "diagnose"]) {
          const managed = await call(registry, "McpManager", { action, server_id: "hostile" });
          expect(managed.isError, `${action}: ${managed.text}`).toBe(true);
        }
        expect(recordedPids(records).length).toBe(startsAfterStop);
        expect(before).toBeLessThanOrEqual(startsAfterStop);
        expect(recordedRequests(records)).not.toContain("resources/read");
      },
    );
  });
});
