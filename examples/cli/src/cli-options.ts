/**
 * Command-line flags of the example CLI, parsed with `node:util`'s parseArgs.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import type { AdditionalRoot, RuntimeScope } from "@agent-tools/core";

/** Everything the CLI was asked to do. */
export interface CliOptions {
  /** The user's prompt (positional arguments joined); empty in demo mode. */
  prompt: string;
  /** Absolute project directory. */
  workdir: string;
  runtimeScope: RuntimeScope;
  /** Extra directories from `--add-dir alias=path[:ro|rw]`. */
  additionalRoots: AdditionalRoot[];
  /** Model name for the OpenAI-compatible client. */
  model: string;
  /** Base URL of an OpenAI-compatible API (e.g. `http://localhost:11434/v1` for Ollama). */
  baseUrl?: string;
  apiKey?: string;
  /** Stop after this many model turns. */
  maxTurns: number;
  /** Print the event stream as JSON lines instead of the live display. */
  json: boolean;
  /** Approve every tool whose policy is `ask` without prompting: only when the user typed `--yes`. */
  yes: boolean;
  /**
   * Approve without prompting only when the offline scripted demo runs
   * (`--yes-if-scripted`, what the `demo` package script passes); a
   * configured model still asks.
   */
  yesIfScripted: boolean;
  /** Run the scripted offline demo even when a model is configured. */
  demo: boolean;
  /** Keep the demo's temporary project instead of deleting it. */
  keep: boolean;
  /** Ask the OpenAI-compatible server for a streamed answer (default true). */
  stream: boolean;
  /**
   * Where the SDK keeps its own files. Default: a temporary directory per run
   * on the demo's sample project; otherwise the SDK's `~/.agent-tools`.
   */
  dataDir?: string;
  /** `--mcp <file>`: a JSON file of MCP servers (`{ "servers": [...] }`). */
  mcp?: string;
  /**
   * `--settings <file>`: permission rules and hooks from a JSON file in the
   * shape of Claude Code's settings.json (its `permissions` and `hooks`).
   */
  settings?: string;
  /** `--explain`: show the permission policy's decision for each tool call before it runs. */
  explain: boolean;
  /** Print usage and exit. */
  help: boolean;
}

/** Thrown for a flag the CLI cannot accept; the message is shown to the user. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** The `--help` text. */
export const USAGE = `Usage: agent-tools-cli [options] [prompt...]

Runs an agent on your project with the agent-tools SDK. Without a configured
model (OPENAI_API_KEY / OPENAI_BASE_URL or --base-url) it runs an offline demo
on a temporary copy of a small sample project.

Options:
  --workdir <dir>              project directory (default: the current directory)
  --scope chat|cron            runtime scope of the tools (default: chat)
  --add-dir alias=path[:ro|rw] grant an extra directory as root://alias/ (default: ro)
  --model <name>               model name (default: $OPENAI_MODEL or gpt-4o-mini)
  --base-url <url>             OpenAI-compatible base URL (default: $OPENAI_BASE_URL)
  --api-key <key>              API key (default: $OPENAI_API_KEY)
  --no-stream                  ask the server for whole answers instead of a stream
  --max-turns <n>              stop after n model turns (default: 20)
  --json                       print the event stream, one JSON object per line
  --yes, -y                    approve tools that ask for permission without prompting
  --yes-if-scripted            approve without prompting only in the offline scripted demo
                               (what \`npm run demo\` passes); a configured model still asks
  --demo                       run the offline scripted demo even if a model is configured
  --keep                       keep the demo's temporary project directory
  --data-dir <dir>             where the SDK keeps its files (default: ~/.agent-tools; a
                               temporary directory when the demo's sample project is used)
  --mcp <file>                 MCP servers from a JSON file ({ "servers": [...] }); their
                               questions (elicitation) are asked at the terminal
  --settings <file>            permission rules and hooks from a JSON file shaped like
                               Claude Code's settings.json: its "permissions" (allow, ask,
                               deny, defaultMode) and "hooks" ("command" and "http" hooks;
                               "timeout" in seconds); other keys (env, model, ...) are ignored
  --explain                    before each tool call, show what the permission policy
                               decides and why (rule, layer, reason); the explanation does
                               not run hooks, so PreToolUse hooks run once, with the call
  --help, -h                   show this help
`;

/**
 * Parses argv (without `node` and the script) and the environment.
 *
 * @example
 * const options = parseCliOptions(["--json", "fix the bug"], process.env, process.cwd());
 */
export function parseCliOptions(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): CliOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        workdir: { type: "string" },
        scope: { type: "string" },
        "add-dir": { type: "string", multiple: true },
        model: { type: "string" },
        "base-url": { type: "string" },
        "api-key": { type: "string" },
        "no-stream": { type: "boolean" },
        "max-turns": { type: "string" },
        json: { type: "boolean" },
        yes: { type: "boolean", short: "y" },
        "yes-if-scripted": { type: "boolean" },
        demo: { type: "boolean" },
        keep: { type: "boolean" },
        "data-dir": { type: "string" },
        mcp: { type: "string" },
        settings: { type: "string" },
        explain: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const values = parsed.values;
  const scope = values.scope ?? "chat";
  if (scope !== "chat" && scope !== "cron") throw new UsageError(`--scope must be chat or cron, not "${scope}".`);
  const maxTurns = values["max-turns"] === undefined ? 20 : Number(values["max-turns"]);
  if (!Number.isInteger(maxTurns) || maxTurns < 1) throw new UsageError(`--max-turns must be a positive integer, not "${values["max-turns"]}".`);
  const workdir = path.resolve(cwd, values.workdir ?? ".");
  return {
    prompt: parsed.positionals.join(" ").trim(),
    workdir,
    runtimeScope: scope,
    additionalRoots: (values["add-dir"] ?? []).map((spec) => parseAddDir(spec, cwd)),
    model: values.model ?? nonEmpty(env.OPENAI_MODEL) ?? "gpt-4o-mini",
    baseUrl: nonEmpty(values["base-url"]) ?? nonEmpty(env.OPENAI_BASE_URL),
    apiKey: nonEmpty(values["api-key"]) ?? nonEmpty(env.OPENAI_API_KEY),
    maxTurns,
    json: values.json === true,
    yes: values.yes === true,
    yesIfScripted: values["yes-if-scripted"] === true,
    demo: values.demo === true,
    keep: values.keep === true,
    stream: values["no-stream"] !== true,
    dataDir: values["data-dir"] === undefined ? undefined : path.resolve(cwd, values["data-dir"]),
    mcp: values.mcp === undefined ? undefined : path.resolve(cwd, values.mcp),
    settings: values.settings === undefined ? undefined : path.resolve(cwd, values.settings),
    explain: values.explain === true,
    help: values.help === true,
  };
}

/**
 * Parses `alias=path[:ro|rw]` into an additional root; access defaults to
 * read-only, the safer choice. A relative path is taken from `cwd`.
 */
export function parseAddDir(spec: string, cwd: string): AdditionalRoot {
  const equals = spec.indexOf("=");
  if (equals <= 0 || equals === spec.length - 1) throw new UsageError(`--add-dir expects alias=path[:ro|rw], not "${spec}".`);
  const alias = spec.slice(0, equals);
  let target = spec.slice(equals + 1);
  let access: AdditionalRoot["access"] = "read";
  const suffix = /:(ro|rw)$/.exec(target);
  if (suffix) {
    access = suffix[1] === "rw" ? "write" : "read";
    target = target.slice(0, -3);
  }
  if (target === "") throw new UsageError(`--add-dir "${spec}" has no path.`);
  return { alias, path: path.resolve(cwd, target), access };
}

/** True when the options name a real model (an API key or a base URL) and no demo was asked for. */
export function usesConfiguredModel(options: CliOptions): boolean {
  return !options.demo && (options.apiKey !== undefined || options.baseUrl !== undefined);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
