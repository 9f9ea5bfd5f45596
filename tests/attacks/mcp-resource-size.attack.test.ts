/**
 * Issue 39, resources: a resource over the SDK's stdio message limit (10 MiB)
 * fails at once as too large, not after the whole timeout as a server that
 * did not answer (which invites the model to retry). 12 MiB: just over the
 * limit, since the SDK's read buffer copies quadratically and a far larger
 * answer takes it long to notice on a loaded machine.
 */
import { afterAll, describe, expect, it } from "vitest";
import { attackRoot, call, withHostileRegistry } from "./mcp-hostile-harness.js";

const root = attackRoot("attack-mcp-resources-open-");
afterAll(() => root.cleanup());

describe("attack: MCP resources over the stdio message limit (was F5)", () => {
  it("a 12 MiB resource fails as too large, not as a server that did not answer", async () => {
    await withHostileRegistry(
      {
        root: root.dir,
        label: "huge-read",
        behaviour: { resources: true, readText: 12 * 1024 * 1024 },
        mcp: { manifestCache: false },
        timeoutMs: 45_000,
      },
      async ({ registry }) => {
        const read = await call(registry, "ReadMcpResource", { server: "hostile", uri: "secret://doc/1" });
        expect(read.isError).toBe(true);
        expect(read.text).toMatch(/too large|larger than/i);
        expect(read.text).not.toContain("in time");
      },
    );
  });
});
