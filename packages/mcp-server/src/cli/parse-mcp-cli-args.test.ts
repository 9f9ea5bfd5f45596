import { SdkError } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { MCP_CLI_USAGE, parseMcpCliArgs, parseRootSpec } from "./parse-mcp-cli-args.js";

const cwd = "/home/user/project";
const parse = (argv: string[], env: Record<string, string | undefined> = {}) => parseMcpCliArgs(argv, env, cwd);
const serve = (argv: string[], env: Record<string, string | undefined> = {}) => {
  const command = parse(argv, env);
  if (command.kind !== "serve") throw new Error(`expected serve, got ${command.kind}`);
  return command.options;
};
const usageError = (argv: string[], pattern: RegExp, env: Record<string, string | undefined> = {}) => {
  let caught: unknown;
  try {
    parse(argv, env);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(SdkError);
  expect((caught as SdkError).code).toBe("invalid_options");
  expect((caught as SdkError).message).toMatch(pattern);
};

describe("parseMcpCliArgs", () => {
  it("serves stdio with defaults: the workdir resolved from cwd, elicitation, nothing excluded", () => {
    expect(serve(["--workdir", "sub"])).toEqual({
      workdir: "/home/user/project/sub",
      additionalRoots: [],
      excludeTools: [],
      policies: {},
      approval: "elicit",
    });
  });

  it("reads every flag", () => {
    const options = serve([
      "--workdir",
      "/srv/app",
      "--root",
      "docs=/srv/docs",
      "--root",
      "out=../out:rw",
      "--data-dir",
      "data",
      "--exclude",
      "Bash",
      "--exclude",
      "Write, Edit",
      "--ask",
      "Delete",
      "--ask",
      "group:shell",
      "--approval",
      "deny",
      "--http",
      "8123",
      "--host",
      "0.0.0.0",
      "--token",
      "s3cret",
      "--allow-origin",
      "http://localhost:5173",
      "--allow-host",
      "mybox.lan:8123",
      "--allow-host",
      "[::1]",
      "--max-sessions",
      "4",
    ]);
    expect(options).toEqual({
      workdir: "/srv/app",
      additionalRoots: [
        { alias: "docs", path: "/srv/docs", access: "read" },
        { alias: "out", path: "/home/user/out", access: "write" },
      ],
      dataDir: "/home/user/project/data",
      excludeTools: ["Bash", "Write", "Edit"],
      policies: { Delete: "ask", "group:shell": "ask" },
      approval: "deny",
      http: {
        port: 8123,
        host: "0.0.0.0",
        bearerToken: "s3cret",
        allowedOrigins: ["http://localhost:5173"],
        allowedHosts: ["mybox.lan:8123", "[::1]"],
        maxSessions: 4,
      },
    });
  });

  it("--ask * asks for every tool that is not read-only", () => {
    const options = serve(["--workdir", ".", "--ask", "*"]);
    expect(options.defaultDecision).toBe("ask");
    expect(options.policies).toEqual({});
  });

  it("HTTP: port 0, host 127.0.0.1 by default, the token from AGENT_TOOLS_MCP_TOKEN unless --token is given", () => {
    expect(serve(["--workdir", ".", "--http", "0"]).http).toEqual({ port: 0, host: "127.0.0.1", allowedOrigins: [], allowedHosts: [] });
    expect(serve(["--workdir", ".", "--http", "0"], { AGENT_TOOLS_MCP_TOKEN: "from-env" }).http?.bearerToken).toBe("from-env");
    expect(serve(["--workdir", ".", "--http", "0", "--token", "flag"], { AGENT_TOOLS_MCP_TOKEN: "from-env" }).http?.bearerToken).toBe("flag");
    // An empty variable is no token.
    expect(serve(["--workdir", ".", "--http", "0"], { AGENT_TOOLS_MCP_TOKEN: "" }).http).not.toHaveProperty("bearerToken");
  });

  it("stdio ignores the token variable", () => {
    expect(serve(["--workdir", "."], { AGENT_TOOLS_MCP_TOKEN: "x" })).not.toHaveProperty("http");
  });

  it("--help and --version win over everything else, even a missing workdir", () => {
    expect(parse(["--help"])).toEqual({ kind: "help" });
    expect(parse(["-h", "--http", "1"])).toEqual({ kind: "help" });
    expect(parse(["--version"])).toEqual({ kind: "version" });
    expect(MCP_CLI_USAGE).toMatch(/^Usage: agent-tools-mcp --workdir <dir>/);
    for (const flag of [
      "--workdir",
      "--root",
      "--data-dir",
      "--exclude",
      "--ask",
      "--approval",
      "--http",
      "--host",
      "--token",
      "--allow-origin",
      "--allow-host",
      "--max-sessions",
      "--version",
      "--help",
    ]) {
      expect(MCP_CLI_USAGE).toContain(flag);
    }
  });

  it("refuses bad command lines with a message that names the flag", () => {
    usageError([], /--workdir <dir> is required/);
    usageError(["--workdir", "  "], /--workdir <dir> is required/);
    usageError(["--workdir", ".", "--bogus"], /Unknown option '--bogus'/);
    usageError(["--workdir", ".", "extra"], /unexpected argument "extra"/);
    usageError(["--workdir"], /--workdir/);
    usageError(["--workdir", ".", "--approval", "ask"], /--approval must be elicit or deny, not "ask"/);
    usageError(["--workdir", ".", "--http", "http"], /--http expects a port number/);
    usageError(["--workdir", ".", "--http", "65536"], /--http expects a port number/);
    usageError(["--workdir", ".", "--http", "-1"], /--http/);
    usageError(["--workdir", ".", "--http", "1.5"], /--http expects a port number/);
    usageError(["--workdir", ".", "--token", "x"], /--token only apply with --http/);
    usageError(["--workdir", ".", "--host", "::1", "--allow-origin", "http://a"], /--host, --allow-origin only apply with --http/);
    usageError(["--workdir", ".", "--http", "0", "--token", ""], /--token must not be empty/);
    usageError(["--workdir", ".", "--http", "0", "--allow-origin", "http://localhost:5173/"], /--allow-origin expects an origin/);
    usageError(["--workdir", ".", "--http", "0", "--allow-origin", "localhost"], /--allow-origin expects an origin/);
    usageError(["--workdir", ".", "--allow-host", "mybox.lan"], /--allow-host only apply with --http/);
    usageError(["--workdir", ".", "--max-sessions", "3"], /--max-sessions only apply with --http/);
    usageError(["--workdir", ".", "--http", "0", "--allow-host", "http://mybox.lan"], /--allow-host expects a host name/);
    usageError(["--workdir", ".", "--http", "0", "--allow-host", "mybox.lan/mcp"], /--allow-host expects a host name/);
    usageError(["--workdir", ".", "--http", "0", "--max-sessions", "0"], /--max-sessions expects a whole number of at least 1, not "0"/);
    usageError(["--workdir", ".", "--http", "0", "--max-sessions", "many"], /--max-sessions expects a whole number/);
    usageError(["--workdir", ".", "--root", "docs"], /--root expects alias=path\[:ro\|:rw\], not "docs"/);
  });
});

describe("parseRootSpec", () => {
  it("defaults to read-only and takes :ro / :rw off the end only", () => {
    expect(parseRootSpec("a=/x", "/")).toEqual({ alias: "a", path: "/x", access: "read" });
    expect(parseRootSpec("a=/x:ro", "/")).toEqual({ alias: "a", path: "/x", access: "read" });
    expect(parseRootSpec("a=/x:rw", "/")).toEqual({ alias: "a", path: "/x", access: "write" });
    expect(parseRootSpec("a=/x:y/z", "/")).toEqual({ alias: "a", path: "/x:y/z", access: "read" });
    expect(parseRootSpec("a=rel", "/base")).toEqual({ alias: "a", path: "/base/rel", access: "read" });
  });

  it("refuses a missing alias or path", () => {
    expect(() => parseRootSpec("=/x", "/")).toThrow(/alias=path/);
    expect(() => parseRootSpec("a=", "/")).toThrow(/alias=path/);
    expect(() => parseRootSpec("a=:rw", "/")).toThrow(/has no path/);
  });
});
