import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const temporary: string[] = [];
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A second, separately loaded copy of errors.ts (a fresh module registry), next to this test's own. */
async function twoCopies() {
  vi.resetModules();
  const first = await import("./errors.js");
  vi.resetModules();
  const second = await import("./errors.js");
  return { first, second };
}

describe("CodedError instanceof across two copies of core", () => {
  it("holds for ToolError, SdkError and CodedError subclasses of the other copy, by class chain", async () => {
    const { first, second } = await twoCopies();
    expect(first.ToolError).not.toBe(second.ToolError);
    const tool = new second.ToolError("not_found", "a.ts does not exist.", { recoverable: false });
    const sdk = new second.SdkError("closed", "closed");
    class PortError extends second.CodedError<"conflict", Record<string, never>> {
      override readonly name = "PortError";
    }
    const port = new PortError("conflict", "merge conflict", {});

    expect(tool instanceof first.ToolError).toBe(true);
    expect(tool instanceof first.CodedError).toBe(true);
    expect(tool instanceof first.SdkError).toBe(false);
    expect(sdk instanceof first.SdkError).toBe(true);
    expect(sdk instanceof first.ToolError).toBe(false);
    expect(port instanceof first.CodedError).toBe(true);
    expect(port instanceof first.ToolError).toBe(false);
    expect(new first.ToolError("io", "x") instanceof second.ToolError).toBe(true);
    // Still an ordinary Error of this realm, and nothing else passes.
    expect(tool instanceof Error).toBe(true);
    for (const other of [new Error("x"), { code: "not_found", name: "ToolError" }, null, "ToolError"]) {
      expect(other instanceof first.CodedError).toBe(false);
      expect(other instanceof first.ToolError).toBe(false);
    }
    // The brand is not enumerable: JSON and object equality see the same keys as before.
    expect(JSON.parse(JSON.stringify(tool))).toEqual({
      name: "ToolError",
      code: "not_found",
      message: "a.ts does not exist.",
      details: {},
      recoverable: false,
    });
    expect(Object.getOwnPropertySymbols(tool).every((symbol) => !Object.getOwnPropertyDescriptor(tool, symbol)?.enumerable)).toBe(true);
  });

  it("a registry of one built copy renders a ToolError thrown by a tool built on another copy (code, details, recoverable)", async () => {
    const copyDir = mkdtempSync(path.join(os.tmpdir(), "core-copy-"));
    temporary.push(copyDir);
    cpSync(path.join(packageDir, "dist"), path.join(copyDir, "dist"), { recursive: true });
    writeFileSync(path.join(copyDir, "package.json"), JSON.stringify({ type: "module" }));
    symlinkSync(path.join(packageDir, "node_modules"), path.join(copyDir, "node_modules"), "dir");
    const script = `
      const a = await import(${JSON.stringify(pathToFileURL(path.join(packageDir, "dist", "index.js")).href)});
      const b = await import(${JSON.stringify(pathToFileURL(path.join(copyDir, "dist", "index.js")).href)});
      const tool = {
        name: "Gone",
        description: "Throws the other copy's ToolError.",
        jsonSchema: { type: "object", properties: {} },
        metadata: { groupId: "custom", kind: "custom", isReadOnly: true, displayCategory: "other" },
        scopes: ["chat", "cron"],
        execute: () => { throw new b.ToolError("unavailable", "The store is gone.", { details: { store: "s" }, recoverable: false }); },
      };
      const registry = a.createToolRegistry({ workdir: process.cwd(), dataDir: ${JSON.stringify(path.join(copyDir, "data"))}, bundles: [{ id: "b", trusted: true, listTools: () => [tool] }] });
      const result = await registry.executeToolCall({ id: "1", name: "Gone", arguments: {} });
      await registry.close();
      const sdk = new b.SdkError("closed", "x");
      console.log(JSON.stringify({
        differentClasses: a.ToolError !== b.ToolError,
        result,
        crossToolError: new b.ToolError("io", "x") instanceof a.ToolError,
        crossSdkError: sdk instanceof a.SdkError && sdk instanceof a.CodedError && !(sdk instanceof a.ToolError),
      }));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { cwd: copyDir });
    const answer = JSON.parse(stdout);
    expect(answer.differentClasses).toBe(true);
    expect(answer.crossToolError).toBe(true);
    expect(answer.crossSdkError).toBe(true);
    expect(answer.result).toEqual({
      content: [{ type: "text", text: "The store is gone." }],
      details: { code: "unavailable", store: "s" },
      isError: true,
      error: { code: "unavailable", message: "The store is gone.", recoverable: false },
    });
  });
});
