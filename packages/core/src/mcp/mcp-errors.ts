import { CodedError } from "../errors.js";

/** One server that failed to load, and why. */
export interface McpLoadFailure {
  /** The server's id. */
  serverId: string;
  /** The error message of its connect attempt. */
  message: string;
}

/** What a load did. */
export interface McpLoadReport {
  /** Ids of the servers that connected. */
  loaded: string[];
  /** The servers that failed. */
  failed: McpLoadFailure[];
}

/** The `details` of an {@link McpLoadError}: the load report and whether some servers did load. */
export interface McpLoadErrorDetails extends McpLoadReport {
  /** True when some servers loaded and only some failed. */
  partial: boolean;
}

/**
 * Loading MCP servers failed for some (`partial`) or all of them. The message
 * lists each failed server; `details` holds the whole load report.
 *
 * @example
 * createMcpToolBundles({ getSettings, onLoadError: (error) => {
 *   if (error instanceof McpLoadError) console.warn(error.details.failed.map((f) => f.serverId));
 * } });
 */
export class McpLoadError extends CodedError<"load_failed", McpLoadErrorDetails> {
  override readonly name = "McpLoadError";

  constructor(report: McpLoadReport, options?: { cause?: unknown }) {
    const partial = report.loaded.length > 0;
    const text = report.failed.map((failure) => `- ${failure.serverId}: ${failure.message}`).join("\n");
    super("load_failed", `${partial ? "Some MCP servers failed to load" : "All MCP servers failed to load"}:\n${text}`, { ...report, partial }, options);
  }

  /** Each failed server and its error message (the same as `details.failed`). */
  get failures(): ReadonlyArray<McpLoadFailure> {
    return this.details.failed;
  }

  /** True when some servers loaded. */
  get partial(): boolean {
    return this.details.partial;
  }

  /** The load report: which servers loaded and which failed. */
  get report(): McpLoadReport {
    return { loaded: this.details.loaded, failed: this.details.failed };
  }
}

/** One enabled server whose configuration cannot be loaded. */
export interface McpConfigProblem {
  /** The server id, or `server #<n>` when it has none. */
  label: string;
  /** Why, e.g. "stdio transport without a command". */
  reason: string;
}

/**
 * Enabled servers have incomplete configurations (no id, no command, no url,
 * an unknown transport). The message lists each one.
 *
 * @example
 * try { assertCompleteMcpServers(servers); } catch (error) {
 *   if (error instanceof McpConfigError) for (const problem of error.details.problems) console.warn(problem.label, problem.reason);
 * }
 */
export class McpConfigError extends CodedError<"incomplete_config", { problems: McpConfigProblem[] }> {
  override readonly name = "McpConfigError";

  constructor(problems: readonly McpConfigProblem[], options?: { cause?: unknown }) {
    super(
      "incomplete_config",
      `The following MCP server configurations are incomplete:\n${problems.map((problem) => `- ${problem.label}: ${problem.reason}`).join("\n")}\n\nPlease complete them in Settings -> MCP.`,
      { problems: [...problems] },
      options,
    );
  }

  /** Each incomplete server and why (the same as `details.problems`). */
  get problems(): ReadonlyArray<McpConfigProblem> {
    return this.details.problems;
  }
}
