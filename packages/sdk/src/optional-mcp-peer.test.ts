import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHostWithoutPeer } from "./__fixtures__/host-without-peer.js";

const run = promisify(execFile);
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const repositoryRoot = path.resolve(packageDir, "../..");
const work = realpathSync(mkdtempSync(path.join(os.tmpdir(), "sdk-without-mcp-")));
const app = path.join(work, "app");
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A host project with the built sdk and its runtime dependencies, but not @agent-tools/mcp. */
const createHostWithoutMcp = () => createHostWithoutPeer({ sdkDir: packageDir, app, missing: "@agent-tools/mcp", nodeTypesFrom: repositoryRoot });

const built = existsSync(path.join(packageDir, "dist", "index.js"));

describe.skipIf(!built && !process.env.CI)("@agent-tools/sdk without @agent-tools/mcp installed", () => {
  beforeAll(createHostWithoutMcp);

  it("cannot resolve @agent-tools/mcp from the host project (the premise of these tests)", async () => {
    const script = `import("@agent-tools/mcp").then(() => console.log("found"), (error) => console.log(error.code));`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: app, timeout: 60_000 });
    expect(stdout.trim()).toBe("ERR_MODULE_NOT_FOUND");
  });

  it("builds a registry and runs a tool call when no mcp options are given", async () => {
    writeFileSync(path.join(app, "hello.txt"), "hello from the host\n");
    const script = `
      import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
      const registry = await buildBuiltinToolRegistry({ workdir: ${JSON.stringify(app)}, dataDir: ${JSON.stringify(path.join(work, "data"))}, memory: false });
      const read = await registry.executeToolCall({ id: "1", name: "Read", arguments: { path: "hello.txt" } });
      console.log(JSON.stringify({ isError: read.isError, text: read.content.map((part) => part.text ?? "").join(""), tools: registry.tools.map((tool) => tool.name) }));
      await registry.close();
    `;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: app, timeout: 60_000 });
    const output = JSON.parse(stdout.trim().split("\n").pop()!);
    expect(output.isError).toBe(false);
    expect(output.text).toContain("hello from the host");
    expect(output.tools).not.toContain("McpManager");
  });

  it("rejects with SdkError naming @agent-tools/mcp and its install command when mcp options are given", async () => {
    const script = `
      import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
      try {
        await buildBuiltinToolRegistry({ workdir: ${JSON.stringify(app)}, dataDir: ${JSON.stringify(path.join(work, "data"))}, memory: false, mcp: { getSettings: () => ({ servers: [], selected: [] }) } });
        console.log(JSON.stringify({ built: true }));
      } catch (error) {
        console.log(JSON.stringify({ name: error.name, code: error.code, message: error.message, details: error.details }));
      }
    `;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: app, timeout: 60_000 });
    const output = JSON.parse(stdout.trim().split("\n").pop()!);
    const { version } = JSON.parse(readFileSync(path.join(packageDir, "../mcp/package.json"), "utf8")) as { version: string };
    expect(output.name).toBe("SdkError");
    expect(output.code).toBe("unsupported");
    expect(output.message).toContain("@agent-tools/mcp");
    expect(output.message).toContain(`npm install @agent-tools/mcp@${version}`);
    expect(output.details).toMatchObject({ option: "mcp", package: "@agent-tools/mcp", version });
  });

  it("type-checks a host's mcp options against the sdk's declarations with skipLibCheck false, keys still checked", async () => {
    writeFileSync(
      path.join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          skipLibCheck: false,
          module: "NodeNext",
          moduleResolution: "NodeNext",
          target: "ES2022",
          noEmit: true,
          types: ["node"],
        },
        files: ["host.ts"],
      }),
    );
    writeFileSync(
      path.join(app, "host.ts"),
      [
        `import { type BuiltinToolRegistryOptions, buildBuiltinToolRegistry } from "@agent-tools/sdk";`,
        `const settings = { servers: [{ id: "docs", enabled: true, transport: "http" as const, command: "", args: [], url: "https://example.com/mcp", timeoutMs: 0 }], selected: [] };`,
        `const options: BuiltinToolRegistryOptions = {`,
        `  workdir: process.cwd(),`,
        `  mcp: { getSettings: () => settings, toolSearch: { tokenBudget: 2000 }, oauth: { clientMetadata: { client_name: "host" } }, onReady: (bundles) => void bundles.refresh() },`,
        `};`,
        `// @ts-expect-error: an unknown key of mcp is a compile error`,
        `const wrong: BuiltinToolRegistryOptions = { workdir: ".", mcp: { getSettings: () => settings, toolsearch: false } };`,
        `const registry = await buildBuiltinToolRegistry(options);`,
        `const listed = await registry.executeToolCall({ id: "1", name: "McpManager", arguments: { action: "list" } });`,
        `if (!listed.isError) console.log(listed.details.serverCount, wrong);`,
        `await registry.close();`,
      ].join("\n"),
    );
    const tsc = path.join(repositoryRoot, "node_modules", "typescript", "bin", "tsc");
    const result = await run(process.execPath, [tsc, "-p", app], { cwd: app, timeout: 120_000 }).then(
      ({ stdout }) => stdout,
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(result.trim()).toBe("");
  }, 180_000);
});
