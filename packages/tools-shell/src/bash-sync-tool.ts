import { type ToolDefinition, defineTool } from "@agent-tools/core";
import { z } from "zod";
import { chooseCommandRunner } from "./command-sandbox-runner.js";
import { type ShellSyncResult, runShellSync } from "./run-shell-sync.js";
import type { ShellInfo } from "./shell-environment.js";
import { resolveCommandCwd } from "./shell-environment.js";
import { EXECUTE_METADATA, type ShellRuntime, checkCommand, commandEnvironment, displayCwd } from "./shell-runtime.js";
import { resolveSyncTimeout, timeoutLimitsFor } from "./timeout-policy.js";

/** Input of the synchronous Bash tool (cron scope). */
export const bashSyncInputSchema = z.object({
  command: z.string().describe("The shell command line (bash). Runs in its own process group."),
  cwd: z
    .string()
    .optional()
    .describe("Working directory: workspace-relative, skill://<name>/..., or absolute. Default: the workspace root. root:// is not accepted."),
  timeout_ms: z.number().optional().describe("Timeout in ms; when reached the whole process tree is killed."),
});

/** `details` of the synchronous Bash tool. */
export interface ShellSyncDetails extends ShellInfo, ShellSyncResult {
  /** `none`, or the mechanism that confined the command (e.g. `bubblewrap`). */
  sandbox: string;
  /** The label of the non-local workspace the command ran on; absent on this machine. */
  workspace?: string;
  cwd: string;
  command: string;
  timeout_ms: number;
}

/** Room for 400 KiB of each stream plus the header. */
const SYNC_MAX_OUTPUT_CHARS = 2 * 400 * 1024 + 8 * 1024;

function render(details: ShellSyncDetails): string {
  const header = [
    "# Shell",
    `shell: ${details.shell}`,
    `platform: ${details.platform}`,
    `profile: ${details.profile}`,
    `shell_family: ${details.shell_family}`,
    `sandbox: ${details.sandbox}`,
    ...(details.workspace === undefined ? [] : [`workspace: ${details.workspace}`]),
    `cwd: ${details.cwd}`,
    `exit_code: ${details.exitCode}`,
    `timed_out: ${details.timedOut}`,
    `cancelled: ${details.cancelled}`,
    `stdio_open_after_exit: ${details.stdioOpenAfterExit}`,
    `timeout_ms: ${details.timeout_ms}`,
    `duration_ms: ${details.durationMs}`,
  ];
  const block = (label: string, text: string, truncated: boolean, total: number) =>
    `${label}${truncated ? ` (truncated: first ${Buffer.byteLength(text)} of ${total} bytes)` : ""}:\n${text === "" ? "(empty)\n" : text.endsWith("\n") ? text : `${text}\n`}`;
  let text = `${header.join("\n")}\n\ncommand:\n${details.command}\n\n`;
  text += block("stdout", details.stdout, details.stdoutTruncated, details.stdoutBytes);
  text += block("stderr", details.stderr, details.stderrTruncated, details.stderrBytes);
  const hints: string[] = [];
  if (details.timedOut)
    hints.push(
      `The command did not finish within ${details.timeout_ms} ms; its whole process tree was killed. Make it faster, split it, or pass a larger timeout_ms if allowed.`,
    );
  if (details.stdoutTruncated || details.stderrTruncated)
    hints.push("Output beyond 400 KiB per stream was dropped; redirect long output to a file and read it in parts.");
  if (details.stdioOpenAfterExit) hints.push("A background process kept the output pipes open after the command exited; redirect its output to a file.");
  if (hints.length > 0) text += `\n${hints.join("\n")}\n`;
  return text;
}

const description = (
  maxMs: number,
  defaultMs: number,
) => `Runs a shell command (bash) in the workspace, waits for it to finish and returns exit_code, stdout and stderr.

- timeout_ms: default ${defaultMs}, at most ${maxMs} (at least 1000). On timeout the whole process tree is killed and timed_out is true.
- The first 400 KiB of stdout and of stderr are returned; redirect longer output to a file.
- A bare "&" background job is refused unless it redirects both stdout and stderr.
- The command runs non-interactively: no prompts, no pager.`;

/** The synchronous Bash tool of the cron scope. */
export function createBashSyncTool(runtime: ShellRuntime): ToolDefinition {
  const limits = timeoutLimitsFor(runtime.providerId);
  return defineTool<typeof bashSyncInputSchema, ShellSyncDetails>({
    name: "Bash",
    description: description(limits.maxMs, limits.defaultMs),
    inputSchema: bashSyncInputSchema,
    metadata: EXECUTE_METADATA,
    scopes: ["cron"],
    handlesAbort: true,
    maxOutputChars: SYNC_MAX_OUTPUT_CHARS,
    loopKey: (input) => input.command,
    async execute(input, context) {
      const cwd = await resolveCommandCwd(context, input.cwd, "Bash cwd");
      await checkCommand(runtime, "Bash", input.command, cwd, input.cwd, "synchronous");
      const timeoutMs = resolveSyncTimeout(input.timeout_ms, runtime.providerId);
      const choice = chooseCommandRunner(context, "Bash", runtime.durable ? [runtime.durable.dir] : []);
      const result = await runShellSync({
        command: input.command,
        cwd,
        shell: runtime.info.shell,
        timeoutMs,
        runner: choice.runner,
        env: commandEnvironment(runtime),
        signal: context.signal,
        onUpdate: context.onUpdate,
      });
      const details: ShellSyncDetails = {
        ...runtime.info,
        ...result,
        sandbox: choice.sandbox,
        ...(choice.workspace === undefined ? {} : { workspace: choice.workspace }),
        cwd: displayCwd(context, cwd),
        command: input.command,
        timeout_ms: timeoutMs,
      };
      return {
        content: render(details),
        details,
        isError: result.exitCode !== 0 || result.timedOut || result.cancelled || result.stdioOpenAfterExit,
      };
    },
  });
}
