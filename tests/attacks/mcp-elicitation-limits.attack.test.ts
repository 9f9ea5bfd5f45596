/**
 * Issue 39, URL elicitation limits (finding F11 of the attack round, kept as
 * guards since its fix): one -32042 listing 200 URL elicitations does not ask
 * the user 200 times; a 1 MB URL never reaches the host; a 1 MB message
 * reaches it cut.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { attackRoot, hostileRegistry } from "./mcp-hostile-harness.js";

const root = attackRoot("attack-mcp-elicitation-limits-");
afterAll(() => root.cleanup());

async function elicitingRegistry(label: string, behaviour: Record<string, unknown>, timeoutMs = 1_000) {
  const asked: Array<{ url: string; message: string }> = [];
  // Through behaviour.json: megabytes of behaviour do not fit in the server's argv.
  const records = path.join(root.dir, label, "records");
  fs.mkdirSync(records, { recursive: true });
  fs.writeFileSync(path.join(records, "behaviour.json"), JSON.stringify({ urlElicitation: "always", ...behaviour }));
  const made = await hostileRegistry({
    root: root.dir,
    label,
    records,
    timeoutMs,
    mcp: {
      manifestCache: false,
      onUrlElicitation: async (request: { url: string; message: string }) => {
        asked.push({ url: request.url, message: request.message });
        return { action: "accept" as const };
      },
    },
  });
  return { ...made, asked };
}

describe("attack: URL elicitation sizes and counts", () => {
  it("(was F11) one -32042 listing 200 URL elicitations does not ask the user 200 times", async () => {
    const { registry, asked } = await elicitingRegistry("many", { elicitationUrl: "https://example.com/consent", elicitationCount: 200 });
    try {
      const result = await registry.executeToolCall({ id: "u", name: "mcp_hostile_peek", arguments: {} });
      expect(result.isError).toBe(true);
      expect(asked.length).toBeLessThanOrEqual(8);
    } finally {
      await registry.close();
    }
  });

  it("(was F11) a 1 MB URL never reaches the host", async () => {
    const { registry, asked } = await elicitingRegistry("long-url", { elicitationUrl: `https://example.com/${"a".repeat(1_000_000)}` }, 3_000);
    try {
      const result = await registry.executeToolCall({ id: "u", name: "mcp_hostile_peek", arguments: {} });
      expect(result.isError).toBe(true);
      expect(asked).toEqual([]);
    } finally {
      await registry.close();
    }
  });

  it("(was F11) a 1 MB message reaches the host cut", async () => {
    const { registry, asked } = await elicitingRegistry(
      "long-message",
      { elicitationUrl: "https://example.com/consent", elicitationMessage: "m".repeat(1_000_000) },
      3_000,
    );
    try {
      await registry.executeToolCall({ id: "u", name: "mcp_hostile_peek", arguments: {} });
      expect(asked).toHaveLength(1);
      expect(asked[0]!.message.length).toBeLessThanOrEqual(64 * 1024);
    } finally {
      await registry.close();
    }
  });
});
