/**
 * A language server that stops answering (hung on a model-written file)
 * must not hang the file tools: Write, Edit and NotebookEdit ask it for
 * diagnostics after their change within the budget and return `pending`;
 * the LSP tool's own call ends (timeout), and registry.close() returns.
 * The server is a host's own config (`lsp-fd-probe-server.mjs` with
 * PROBE_SILENT=1), standing in for a server a hostile file wedged.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { toolResultText } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-lsp-hung-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));
const server = path.join(path.dirname(fileURLToPath(import.meta.url)), "lsp-fd-probe-server.mjs");

describe("a language server that never answers", () => {
  it("Write and Edit return with diagnostics pending; the LSP call ends; close returns", async () => {
    const workdir = path.join(temporary, "work");
    fs.mkdirSync(workdir, { recursive: true });
    const registry = await buildBuiltinToolRegistry({
      workdir,
      dataDir: path.join(temporary, "data"),
      memory: false,
      lsp: {
        servers: [
          {
            id: "hung",
            extensions: [".probe"],
            languageId: () => "plaintext",
            command: process.execPath,
            args: [server],
            env: { PROBE_SILENT: "1" },
          },
        ],
        diagnosticsAfterEdits: { budgetMs: 300 },
      },
      approval: { defaultDecision: "allow" },
    } as never);
    try {
      const written = await registry.executeToolCall({ id: "w", name: "Write", arguments: { path: "a.probe", content: "one\n" } });
      expect(written.isError, toolResultText(written, "")).toBe(false);
      const writtenDiagnostics = (written.details as { diagnostics?: { status?: string } }).diagnostics;
      expect(["pending", "unavailable"]).toContain(writtenDiagnostics?.status);
      const edited = await registry.executeToolCall({ id: "e", name: "Edit", arguments: { path: "a.probe", old_string: "one", new_string: "two" } });
      expect(edited.isError, toolResultText(edited, "")).toBe(false);
      expect(["pending", "unavailable"]).toContain((edited.details as { diagnostics?: { status?: string } }).diagnostics?.status);
      expect(fs.readFileSync(path.join(workdir, "a.probe"), "utf8")).toBe("two\n");
      const controller = new AbortController();
      const hover = registry.executeToolCall(
        { id: "h", name: "LSP", arguments: { action: "hover", path: "a.probe", line: 1, character: 1 } },
        { signal: controller.signal },
      );
      setTimeout(() => controller.abort(), 500);
      const answered = await hover;
      expect(answered.isError).toBe(true);
    } finally {
      await registry.close();
    }
  }, 60_000);
});
