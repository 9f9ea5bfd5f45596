import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const work = mkdtempSync(path.join(os.tmpdir(), "sdk-plain-node-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// The built package, imported by name from a plain Node ESM script (no tsx, no
// source condition): what a host gets after the README's setup.
describe("@agent-tools/sdk from plain Node", () => {
  it.skipIf(!existsSync(path.join(packageDir, "dist", "index.js")) && !process.env.CI)("builds a registry and runs a tool call", async () => {
    const script = `
      import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
      const registry = await buildBuiltinToolRegistry({ workdir: ${JSON.stringify(work)}, dataDir: ${JSON.stringify(path.join(work, "data"))} });
      const unknown = await registry.executeToolCall({ id: "1", name: "NoSuchTool", arguments: "{}" });
      console.log(JSON.stringify({ tools: registry.tools.map((t) => t.name), unknown }));
      await registry.close();
    `;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: packageDir, timeout: 60_000 });
    const output = JSON.parse(stdout.trim().split("\n").pop()!);
    expect(Array.isArray(output.tools)).toBe(true);
    expect(output.unknown.isError).toBe(true);
    expect(output.unknown.content[0].text).toContain("Unknown tool: NoSuchTool");
  });
});
