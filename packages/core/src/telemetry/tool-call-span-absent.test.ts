import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it, vi } from "vitest";
import { z } from "zod";

afterEach(() => {
  vi.doUnmock("@opentelemetry/api");
  vi.resetModules();
});

it("records nothing and still answers when @opentelemetry/api is not installed", async () => {
  vi.resetModules();
  vi.doMock("@opentelemetry/api", () => {
    throw Object.assign(new Error("Cannot find package '@opentelemetry/api' imported from core"), { code: "ERR_MODULE_NOT_FOUND" });
  });
  await expect(import("@opentelemetry/api")).rejects.toThrow(); // vitest wraps the factory's error
  const { createToolRegistry } = await import("../registry/create-tool-registry.js");
  const { defineTool } = await import("../registry/define-tool.js");
  const Echo = defineTool({
    name: "Echo",
    description: "Echoes its text.",
    inputSchema: z.object({ text: z.string() }),
    metadata: { groupId: "test", kind: "read", isReadOnly: true, displayCategory: "file" },
    execute: ({ text }) => ({ content: `echo: ${text}` }),
  });
  const workdir = mkdtempSync(path.join(os.tmpdir(), "agent-tools-telemetry-absent-"));
  try {
    const registry = createToolRegistry({ workdir, bundles: [{ id: "test", trusted: true, listTools: () => [Echo] }] });
    for (const id of ["call_1", "call_2"]) {
      const result = await registry.executeToolCall({ id, name: "Echo", arguments: { text: "a" } });
      expect(result).toMatchObject({ isError: false, content: [{ type: "text", text: "echo: a" }] });
    }
  } finally {
    rmSync(workdir, { recursive: true, force: true });
  }
});
