/**
 * The official MCP Inspector's CLI against the `agent-tools-mcp` bin: a
 * client we did not write lists the tools (with its schema portability check)
 * and calls them. The Inspector needs Node 22, so it runs from
 * compat/mcp-inspector (its own npm lock and Node 22 from the npm package
 * `node`, installed by scripts/setup.sh); the server runs on this Node.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const compat = path.join(repositoryRoot, "compat", "mcp-inspector");
const node22 = path.join(compat, "node_modules", "node", "bin", "node");
const inspector = path.join(compat, "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js");
const main = path.join(repositoryRoot, "packages/mcp-server/src/cli/main.ts");

let base: string;
let workdir: string;
let docs: string;

beforeAll(() => {
  base = mkdtempSync(path.join(os.tmpdir(), "agent-tools-mcp-inspector-"));
  workdir = path.join(base, "project");
  docs = path.join(base, "docs");
  mkdirSync(workdir);
  mkdirSync(docs);
  writeFileSync(path.join(workdir, "notes.md"), "line one\nline two from the inspector test\n");
  writeFileSync(path.join(docs, "guide.md"), "the guide\n");
});

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

interface InspectorRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the Inspector CLI (Node 22) on the bin (this Node); `--format json` prints one JSON object. */
function runInspector(inspectorArgs: string[], serverArgs: string[] = []): Promise<InspectorRun> {
  if (!existsSync(node22) || !existsSync(inspector)) {
    throw new Error("compat/mcp-inspector/node_modules is missing: run scripts/setup.sh (it runs npm ci in compat/mcp-inspector) before this test.");
  }
  const args = [
    inspector,
    "--cli",
    "--format",
    "json",
    "--cwd",
    repositoryRoot,
    ...inspectorArgs,
    // Everything after -- is the server's command line, flags included.
    "--",
    process.execPath,
    "--import",
    "tsx",
    "--conditions=@agent-tools/source",
    main,
    "--workdir",
    workdir,
    "--data-dir",
    path.join(base, "data"),
    ...serverArgs,
  ];
  // The Inspector keeps a catalog and a client config under ~/.mcp-inspector unless told otherwise.
  const env = { ...process.env, MCP_CATALOG_PATH: path.join(base, "catalog.json"), MCP_CLIENT_CONFIG_PATH: path.join(base, "client.json") };
  return new Promise((resolve) => {
    execFile(node22, args, { cwd: repositoryRoot, env, timeout: 150_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

function parseJson(run: InspectorRun): { result?: Record<string, unknown>; error?: unknown } {
  expect(run.stdout.trim(), `the Inspector printed nothing on stdout (exit ${run.code}); stderr:\n${run.stderr}`).not.toBe("");
  return JSON.parse(run.stdout);
}

describe("MCP Inspector CLI (Node 22) against agent-tools-mcp", { timeout: 180_000 }, () => {
  it("runs on Node 22", async () => {
    const version = await new Promise<string>((resolve, reject) =>
      execFile(node22, ["--version"], (error, stdout) => (error ? reject(error) : resolve(stdout.trim()))),
    ).catch(() => "missing");
    expect(version).toMatch(/^v22\./);
  });

  it("tools/list --strict: the built-in tools with annotations and no schema portability error", async () => {
    const run = await runInspector(["--method", "tools/list", "--strict"]);
    expect(run.code, run.stderr).toBe(0);
    const tools = parseJson(run).result?.tools as {
      name: string;
      description?: string;
      inputSchema: { type: string };
      annotations?: Record<string, unknown>;
    }[];
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["Read", "Write", "Edit", "Glob", "Grep", "Bash"]));
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(tool.description, tool.name).toBeTruthy();
    }
    expect(tools.find((tool) => tool.name === "Read")?.annotations).toMatchObject({ readOnlyHint: true });
  });

  it("tools/call Read with --tool-arg returns the file's text", async () => {
    const run = await runInspector(["--method", "tools/call", "--tool-name", "Read", "--tool-arg", "path=notes.md"]);
    expect(run.code, run.stderr).toBe(0);
    const result = parseJson(run).result as { content: { type: string; text: string }[]; isError?: boolean };
    expect(result.isError).not.toBe(true);
    expect(result.content.map((block) => block.text).join("\n")).toContain("line two from the inspector test");
  });

  it("tools/call Write into a read-only --root answers an error result and writes nothing", async () => {
    const run = await runInspector(
      ["--method", "tools/call", "--tool-name", "Write", "--tool-args-json", JSON.stringify({ path: "root://docs/new.md", content: "x\n" })],
      ["--root", `docs=${docs}:ro`],
    );
    const output = parseJson(run);
    const result = output.result as { content: { type: string; text: string }[]; isError?: boolean } | undefined;
    expect(result?.isError, run.stdout).toBe(true);
    expect(existsSync(path.join(docs, "new.md"))).toBe(false);
    expect(readFileSync(path.join(docs, "guide.md"), "utf8")).toBe("the guide\n");
  });
});
