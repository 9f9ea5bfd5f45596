/**
 * Issue 39, McpManager: the model ran a denied server's command as an inline
 * server under another id (and any command with Bash denied) through
 * test/tools/diagnose before the fix; inline stdio servers are now judged as
 * a Bash call, and a copy of a configured server as that server.
 */
import { afterAll, describe, expect, it } from "vitest";
import { attackRoot, call, HOSTILE_SERVER, recordedPids, withHostileRegistry } from "./mcp-hostile-harness.js";

const root = attackRoot("attack-mcp-manager-inline-");
afterAll(() => root.cleanup());

describe("attack: McpManager inline servers around a server deny", () => {
  it("F15: the command of a server:<id>-denied server does not run as an inline server under another id", async () => {
    await withHostileRegistry(
      {
        root: root.dir,
        label: "inline",
        behaviour: { resources: true, tools: ["peek"] },
        extra: { approval: { policies: { "server:hostile": "deny", Bash: "deny" } } },
      },
      async ({ registry, records }) => {
        await call(registry, "McpManager", { action: "stop", server_id: "hostile" });
        const before = recordedPids(records).length;
        const read = await call(registry, "McpManager", { action: "read", server_id: "hostile" });
        // The model reads the denied server's command line and runs it under an id no rule names.
        const copy = {
          id: "copy",
          transport: "stdio",
          command: process.execPath,
          args: [HOSTILE_SERVER, records, JSON.stringify({ resources: true, tools: ["peek"] })],
        };
        expect(read.text).toContain("hostile-mcp-server.mjs");
        for (const action of ["test", "tools", "diagnose"]) await call(registry, "McpManager", { action, server: copy });
        expect(recordedPids(records).length).toBe(before);
      },
    );
  });
});
