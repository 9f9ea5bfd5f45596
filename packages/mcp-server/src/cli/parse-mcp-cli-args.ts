/**
 * The flags of the `agent-tools-mcp` command, parsed with `node:util`'s
 * parseArgs. Pure: no file system, no process; the caller checks that the
 * directories exist.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { type AdditionalRoot, type ApprovalDecision, SdkError } from "@agent-tools/core";

/** The environment variable that holds the HTTP bearer token when `--token` is not given. */
export const MCP_TOKEN_ENV = "AGENT_TOOLS_MCP_TOKEN";

/** The `--help` text. */
export const MCP_CLI_USAGE = `Usage: agent-tools-mcp --workdir <dir> [options]

Serves the agent-tools file, shell, task and memory tools to an MCP client
(Claude Desktop, Cursor, an IDE, another agent) over stdio, or over Streamable
HTTP with --http.

Options:
  --workdir <dir>              project directory the tools work in (required)
  --root alias=path[:ro|:rw]   grant an extra directory as root://alias/ (default :ro); repeatable
  --data-dir <dir>             where the SDK keeps its SQLite file, memory and logs
                               (default: ~/.agent-tools)
  --exclude <tool>             leave a tool out (e.g. Bash); repeatable or comma-separated
  --ask <tool>                 ask the user before each call of this tool (a tool name or
                               group:<id>; * asks for every tool that is not read-only); repeatable
  --approval elicit|deny       how a call that needs approval is decided: ask the client
                               through MCP elicitation (default), or refuse it
  --http <port>                serve Streamable HTTP on this port instead of stdio (0 picks
                               a free port); the URL is printed on stderr
  --host <address>             HTTP: address to bind (default 127.0.0.1)
  --token <token>              HTTP: require "Authorization: Bearer <token>" (default:
                               $${MCP_TOKEN_ENV})
  --allow-origin <origin>      HTTP: a browser Origin to accept in addition to the default
                               origins (it does not replace them): http://127.0.0.1:<port>,
                               http://localhost:<port>, http://[::1]:<port> and the bound
                               address with the port (every local interface address when
                               bound to 0.0.0.0 or ::). A request without an Origin header is
                               accepted (it does not come from a browser page); repeatable
  --allow-host <host[:port]>   HTTP: a Host header to accept besides 127.0.0.1, localhost,
                               [::1] and the bound address (DNS-rebinding protection);
                               repeatable
  --max-sessions <n>           HTTP: open sessions allowed at a time (default 32)
  --version                    print the version
  --help, -h                   show this help
`;

/** HTTP settings from `--http`, `--host`, `--token`, `--allow-origin`, `--allow-host` and `--max-sessions`. */
export interface McpCliHttpOptions {
  port: number;
  host: string;
  /** From `--token` or the `AGENT_TOOLS_MCP_TOKEN` environment variable. */
  bearerToken?: string;
  /** Origins accepted besides the server's own. */
  allowedOrigins: string[];
  /** Host header values accepted besides the server's own names. */
  allowedHosts: string[];
  /** Absent: the listener's default. */
  maxSessions?: number;
}

/** What a run of the command serves. */
export interface McpCliServeOptions {
  /** Absolute project directory. */
  workdir: string;
  /** Extra directories from `--root`. */
  additionalRoots: AdditionalRoot[];
  /** Absolute, when given. */
  dataDir?: string;
  excludeTools: string[];
  /** Approval rules from `--ask` (`policies` and the default for non-read-only tools). */
  policies: Record<string, ApprovalDecision>;
  defaultDecision?: ApprovalDecision;
  approval: "elicit" | "deny";
  /** Absent: stdio. */
  http?: McpCliHttpOptions;
}

/** The command line's meaning: serve, or print help or the version. */
export type McpCliCommand = { kind: "help" } | { kind: "version" } | { kind: "serve"; options: McpCliServeOptions };

/**
 * Parses argv (without `node` and the script). Throws `SdkError`
 * (`invalid_options`) with a message for the user on a flag it cannot accept.
 *
 * @example
 * const command = parseMcpCliArgs(["--workdir", ".", "--http", "0"], process.env, process.cwd());
 * if (command.kind === "serve") console.error(command.options.http?.port); // 0
 */
export function parseMcpCliArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, cwd: string): McpCliCommand {
  let parsed: ReturnType<typeof parseFlags>;
  try {
    parsed = parseFlags(argv);
  } catch (error) {
    throw usage((error as Error).message);
  }
  const values = parsed.values;
  if (parsed.positionals.length > 0) throw usage(`unexpected argument "${parsed.positionals[0]}"; every option is a --flag.`);
  if (values.help === true) return { kind: "help" };
  if (values.version === true) return { kind: "version" };

  if (values.workdir === undefined || values.workdir.trim() === "") throw usage("--workdir <dir> is required: the project directory the tools work in.");
  const approval = values.approval ?? "elicit";
  if (approval !== "elicit" && approval !== "deny") throw usage(`--approval must be elicit or deny, not "${approval}".`);

  const policies: Record<string, ApprovalDecision> = {};
  let defaultDecision: ApprovalDecision | undefined;
  for (const name of splitList(values.ask ?? [])) {
    if (name === "*") defaultDecision = "ask";
    else policies[name] = "ask";
  }

  const options: McpCliServeOptions = {
    workdir: path.resolve(cwd, values.workdir),
    additionalRoots: (values.root ?? []).map((spec) => parseRootSpec(spec, cwd)),
    excludeTools: splitList(values.exclude ?? []),
    policies,
    approval,
  };
  if (defaultDecision !== undefined) options.defaultDecision = defaultDecision;
  if (values["data-dir"] !== undefined) options.dataDir = path.resolve(cwd, values["data-dir"]);

  if (values.http === undefined) {
    const httpOnly = (["host", "token", "allow-origin", "allow-host", "max-sessions"] as const).filter((flag) => values[flag] !== undefined);
    if (httpOnly.length > 0) throw usage(`${httpOnly.map((flag) => `--${flag}`).join(", ")} only apply with --http <port>.`);
    return { kind: "serve", options };
  }
  const port = Number(values.http);
  if (!/^\d+$/.test(values.http) || port > 65_535) throw usage(`--http expects a port number from 0 to 65535 (0 picks a free one), not "${values.http}".`);
  const host = values.host ?? "127.0.0.1";
  if (host.trim() === "") throw usage("--host must not be empty.");
  const http: McpCliHttpOptions = { port, host, allowedOrigins: [...(values["allow-origin"] ?? [])], allowedHosts: [...(values["allow-host"] ?? [])] };
  const token = values.token ?? env[MCP_TOKEN_ENV];
  if (token !== undefined && token !== "") http.bearerToken = token;
  else if (values.token !== undefined) throw usage("--token must not be empty.");
  for (const origin of http.allowedOrigins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin))
      throw usage(`--allow-origin expects an origin such as http://localhost:5173 (scheme and host, no path), not "${origin}".`);
  }
  for (const entry of http.allowedHosts) {
    if (!/^(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)(?::\d{1,5})?$/i.test(entry)) {
      throw usage(`--allow-host expects a host name or address with an optional port, such as mybox.lan or mybox.lan:8123, not "${entry}".`);
    }
  }
  const maxSessions = values["max-sessions"];
  if (maxSessions !== undefined) {
    if (!/^\d+$/.test(maxSessions) || Number(maxSessions) < 1 || !Number.isSafeInteger(Number(maxSessions))) {
      throw usage(`--max-sessions expects a whole number of at least 1, not "${maxSessions}".`);
    }
    http.maxSessions = Number(maxSessions);
  }
  options.http = http;
  return { kind: "serve", options };
}

/**
 * Parses `alias=path[:ro|:rw]` into an additional root; access defaults to
 * read-only, the safer choice. A relative path is taken from `cwd`.
 *
 * @example
 * parseRootSpec("docs=/srv/docs:rw", "/"); // { alias: "docs", path: "/srv/docs", access: "write" }
 */
export function parseRootSpec(spec: string, cwd: string): AdditionalRoot {
  const equals = spec.indexOf("=");
  if (equals <= 0 || equals === spec.length - 1) throw usage(`--root expects alias=path[:ro|:rw], not "${spec}".`);
  const alias = spec.slice(0, equals);
  let target = spec.slice(equals + 1);
  let access: AdditionalRoot["access"] = "read";
  const suffix = /:(ro|rw)$/.exec(target);
  if (suffix) {
    access = suffix[1] === "rw" ? "write" : "read";
    target = target.slice(0, -3);
  }
  if (target === "") throw usage(`--root "${spec}" has no path.`);
  return { alias, path: path.resolve(cwd, target), access };
}

function parseFlags(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      workdir: { type: "string" },
      root: { type: "string", multiple: true },
      "data-dir": { type: "string" },
      exclude: { type: "string", multiple: true },
      ask: { type: "string", multiple: true },
      approval: { type: "string" },
      http: { type: "string" },
      host: { type: "string" },
      token: { type: "string" },
      "allow-origin": { type: "string", multiple: true },
      "allow-host": { type: "string", multiple: true },
      "max-sessions": { type: "string" },
      version: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}

function splitList(values: readonly string[]): string[] {
  return values
    .flatMap((value) => value.split(","))
    .map((name) => name.trim())
    .filter((name) => name !== "");
}

function usage(message: string): SdkError {
  return new SdkError("invalid_options", `agent-tools-mcp: ${message}`, { usage: true });
}
