/**
 * The `agent-tools-mcp` bin over Streamable HTTP, and its command line
 * errors, end to end: a real child process driven by the MCP SDK's own
 * client and by plain `fetch`.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { initializeStatus, rawInitializeStatus, textOf } from "../testing-helpers.js";
import { PACKAGE_VERSION, createBinSandbox } from "./bin-test-harness.js";

const sandbox = createBinSandbox();
beforeEach(() => sandbox.setUp());
afterEach(() => sandbox.tearDown());

// Each case starts the bin through tsx: seconds each on a loaded machine.
describe("agent-tools-mcp over Streamable HTTP", { timeout: 180_000 }, () => {
  it("--http 0 prints the URL it bound, requires the bearer token, serves calls, and closes on SIGTERM", async () => {
    const bin = sandbox.spawnBin(["--workdir", sandbox.workdir, "--data-dir", sandbox.dataDir, "--http", "0", "--token", "t0ken"]);
    const match = await bin.stderrMatching(/listening on (http:\/\/127\.0\.0\.1:(\d+)\/mcp)/);
    const url = match[1] as string;
    expect(Number(match[2])).toBeGreaterThan(0);

    expect(await initializeStatus(url, {})).toBe(401);
    expect(await initializeStatus(url, { Authorization: "Bearer nope" })).toBe(401);

    const client = new Client({ name: "bin-test-http", version: "0.0.0" }, { capabilities: {} });
    sandbox.track(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: "Bearer t0ken" } } }));
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("Glob");
    const glob = await client.callTool({ name: "Glob", arguments: { pattern: "**/*.md" } });
    expect(textOf(glob)).toContain("notes.md");
    await client.close();

    bin.child.kill("SIGTERM");
    const { code, stdout } = await bin.exited;
    expect(code).toBe(0);
    expect(stdout).toBe("");
  });

  it("takes the token from AGENT_TOOLS_MCP_TOKEN", async () => {
    const bin = sandbox.spawnBin(["--workdir", sandbox.workdir, "--data-dir", sandbox.dataDir, "--http", "0"], {
      ...process.env,
      AGENT_TOOLS_MCP_TOKEN: "from-env",
    });
    const url = (await bin.stderrMatching(/listening on (\S+\/mcp)/))[1] as string;
    const client = new Client({ name: "bin-test-env", version: "0.0.0" }, { capabilities: {} });
    sandbox.track(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: "Bearer from-env" } } }));
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
    bin.child.kill("SIGINT");
    expect((await bin.exited).code).toBe(0);
  });
});

describe("agent-tools-mcp HTTP guards", { timeout: 180_000 }, () => {
  it("refuses a foreign Host with 403 unless --allow-host names it, takes a lower-case bearer, and caps sessions at --max-sessions", async () => {
    const bin = sandbox.spawnBin([
      "--workdir",
      sandbox.workdir,
      "--data-dir",
      sandbox.dataDir,
      "--http",
      "0",
      "--token",
      "t0ken",
      "--allow-host",
      "mybox.lan",
      "--max-sessions",
      "1",
    ]);
    const url = (await bin.stderrMatching(/listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/))[1] as string;
    const port = new URL(url).port;
    expect(await rawInitializeStatus(url, { host: `evil.example:${port}`, authorization: "Bearer t0ken" })).toBe(403);
    expect(await rawInitializeStatus(url, { host: `mybox.lan:${port}`, authorization: "bearer t0ken" })).toBe(200);
    expect(await rawInitializeStatus(url, { authorization: "Bearer t0ken" })).toBe(503);
    bin.child.kill("SIGTERM");
    expect((await bin.exited).code).toBe(0);
  });
});

describe("agent-tools-mcp command line errors", { timeout: 180_000 }, () => {
  it("exits 2 with the message and the usage on stderr for a bad flag, a missing or non-directory workdir", async () => {
    const file = path.join(sandbox.base, "file.txt");
    writeFileSync(file, "");
    const cases: [string[], RegExp][] = [
      [["--workdir", sandbox.workdir, "--http", "port"], /--http expects a port number/],
      [[], /--workdir <dir> is required/],
      [["--workdir", path.join(sandbox.base, "missing")], /does not exist/],
      [["--workdir", file], /is not a directory/],
      [["--workdir", sandbox.workdir, "--root", `docs=${path.join(sandbox.base, "nope")}`], /--root docs: .* does not exist/],
    ];
    const results = await Promise.all(cases.map(([args]) => sandbox.spawnBin(args).exited));
    results.forEach((result, index) => {
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(cases[index]![1]);
      expect(result.stderr).toContain("Usage: agent-tools-mcp");
      expect(result.stdout).toBe("");
    });
  });

  it("exits 2 when the SDK refuses a root (an alias it does not accept)", async () => {
    const result = await sandbox.spawnBin(["--workdir", sandbox.workdir, "--data-dir", sandbox.dataDir, "--root", `Bad Alias=${sandbox.base}`]).exited;
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/cannot build the tools: .*Bad Alias/);
    expect(result.stdout).toBe("");
  });

  it("--version and --help print on stdout and exit 0", async () => {
    const version = await sandbox.spawnBin(["--version"]).exited;
    expect(version).toMatchObject({ code: 0, stdout: `${PACKAGE_VERSION}\n` });
    const help = await sandbox.spawnBin(["--help"]).exited;
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: agent-tools-mcp");
  });
});
