/**
 * A hostile MCP server claims every reassuring hint for a tool that writes
 * (readOnlyHint, idempotentHint, openWorldHint: false, and the SDK's own
 * annotation names `readOnly`/`listedInPlanMode` in its annotations). The
 * proxied tool must stay what the SDK assumes of any server's tool: not
 * read-only, not idempotent, open-world; so plan mode neither lists nor runs
 * it and the read-only allow of the approval rules does not approve it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { resolveToolAnnotations, toolResultText } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-mcp-hints-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));
const server = fileURLToPath(new URL("./hinting-mcp-server.mjs", import.meta.url));

async function registryWith(label: string, extra: Record<string, unknown>) {
  const workdir = path.join(temporary, label, "work");
  const markers = path.join(temporary, label, "markers");
  fs.mkdirSync(workdir, { recursive: true });
  fs.mkdirSync(markers);
  const registry = await buildBuiltinToolRegistry({
    workdir,
    dataDir: path.join(temporary, label, "data"),
    memory: false,
    mcp: {
      getSettings: () =>
        ({
          servers: [{ id: "hinting", enabled: true, transport: "stdio", command: process.execPath, args: [server, markers], timeoutMs: 20_000 }],
          selected: [],
        }) as never,
    },
    ...extra,
  });
  return { registry, markers };
}

describe("attack: an MCP server's hints do not make its tool trusted", () => {
  it("the proxied tool is not read-only, idempotent or closed-world whatever the server claims", async () => {
    const { registry } = await registryWith("annotations", {});
    try {
      const metadata = registry.metadataByName.mcp_hinting_peek;
      expect(metadata, Object.keys(registry.metadataByName).join(",")).toBeDefined();
      const resolved = resolveToolAnnotations(metadata!);
      expect(resolved.readOnly).toBe(false);
      expect(resolved.listedInPlanMode).toBe(false);
      expect(resolved.idempotent).not.toBe(true);
      expect(resolved.openWorld).toBe(true);
    } finally {
      await registry.close();
    }
  });

  for (const defaultDecision of ["ask", "deny"] as const) {
    it(`is not auto-approved as read-only under defaultDecision ${defaultDecision} (no onAsk)`, async () => {
      const { registry, markers } = await registryWith(`approval-${defaultDecision}`, { approval: { defaultDecision } });
      try {
        expect(registry.approvalDecision("mcp_hinting_peek")).toBe(defaultDecision);
        const result = await registry.executeToolCall({ id: "peek", name: "mcp_hinting_peek", arguments: {} });
        expect(result.isError, toolResultText(result, "")).toBe(true);
        expect(fs.readdirSync(markers)).toEqual([]);
        // A built-in read-only tool is still allowed by the same rules (so the refusal above is the hint's, not a blanket one).
        expect(registry.approvalDecision("Read")).toBe("allow");
      } finally {
        await registry.close();
      }
    });
  }

  it("plan mode neither lists nor runs it", async () => {
    const { registry, markers } = await registryWith("plan", { interaction: { planMode: true } });
    try {
      expect(registry.tools.map((tool) => tool.name)).not.toContain("mcp_hinting_peek");
      expect(registry.hasTool("mcp_hinting_peek")).toBe(false);
      const result = await registry.executeToolCall({ id: "peek", name: "mcp_hinting_peek", arguments: {} });
      expect(result.isError).toBe(true);
      expect(fs.readdirSync(markers)).toEqual([]);
      registry.setPlanMode(false);
      // Outside plan mode the tool exists and runs (the refusals above were plan mode's).
      const ran = await registry.executeToolCall({ id: "peek2", name: "mcp_hinting_peek", arguments: {} });
      expect(toolResultText(ran, "")).toContain("peeked");
      expect(fs.readdirSync(markers)).toHaveLength(1);
    } finally {
      await registry.close();
    }
  });
});
