/**
 * Approval for tools whose policy is `ask`: `--yes` approves everything; at a
 * terminal the user is asked (y / n / a = always for this tool); with no
 * terminal to ask, the call is declined and the model is told so.
 */
import readline from "node:readline";
import type { ApprovalOptions, ApprovalRequest } from "@agent-tools/core";
import type { AgentEventListener } from "../agent/agent-events.js";
import { summarizeArguments } from "../display/argument-summary.js";

/** Options of {@link createApprovalOptions}. */
export interface ApprovalPromptOptions {
  /** `--yes`: approve without asking. */
  yes: boolean;
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Where the question is written (stderr in `--json` mode, so stdout stays JSON). */
  output: NodeJS.WritableStream;
  onEvent: AgentEventListener;
  /** Ctrl-C at the question: the host cancels the session. */
  onInterrupt?(): void;
  /** Called before the question, returns a function called after it (pauses the spinner). */
  pause?(): () => void;
}

/** Tools that change nothing outside the session's own state: never worth a question. */
const ALWAYS_ALLOWED = ["TaskCreate", "TaskUpdate", "TaskList"];

/**
 * The registry's approval rules for this CLI: read-only tools and the task
 * tools run freely; every other tool is `ask`, answered by the flag or the user.
 *
 * @example
 * const approval = createApprovalOptions({ yes: false, input: process.stdin, output: process.stderr, onEvent });
 * const registry = await buildBuiltinToolRegistry({ workdir, approval });
 */
export function createApprovalOptions(options: ApprovalPromptOptions): ApprovalOptions {
  const remembered = new Set<string>();
  let queue: Promise<unknown> = Promise.resolve();
  const policies = Object.fromEntries(ALWAYS_ALLOWED.map((name) => [name, "allow" as const]));
  return {
    policies,
    defaultDecision: "ask",
    onAsk: (request) => {
      const report = (approved: boolean, by: "flag" | "user" | "remembered" | "no-terminal") => {
        options.onEvent({ type: "approval", callId: request.callId, toolName: request.toolName, approved, by });
        return approved;
      };
      if (options.yes) return report(true, "flag");
      if (remembered.has(request.toolName)) return report(true, "remembered");
      if (options.input.isTTY !== true) return report(false, "no-terminal");
      // One question at a time, even when calls run in parallel.
      const answer = queue.then(async () => {
        if (remembered.has(request.toolName)) return report(true, "remembered");
        const reply = await ask(options, request);
        if (reply === "always") remembered.add(request.toolName);
        return report(reply !== "no", "user");
      });
      queue = answer.catch(() => undefined);
      return answer;
    },
  };
}

async function ask(options: ApprovalPromptOptions, request: ApprovalRequest): Promise<"yes" | "no" | "always"> {
  const resume = options.pause?.();
  const rl = readline.createInterface({ input: options.input, output: options.output, terminal: true });
  const onAbort = () => rl.close();
  request.signal.addEventListener("abort", onAbort, { once: true });
  try {
    const summary = summarizeArguments(request.toolName, request.arguments, 80);
    const reply = await new Promise<string>((resolve) => {
      rl.once("close", () => resolve(""));
      // In raw mode Ctrl-C reaches readline, not the process: cancel the
      // session as a Ctrl-C elsewhere would, and decline this call.
      rl.once("SIGINT", () => {
        options.onInterrupt?.();
        rl.close();
      });
      rl.question(`Allow ${request.toolName} ${summary}? [y]es / [n]o / [a]lways for ${request.toolName}: `, resolve);
    });
    const normalised = reply.trim().toLowerCase();
    if (normalised === "a" || normalised === "always") return "always";
    if (normalised === "y" || normalised === "yes") return "yes";
    return "no";
  } finally {
    request.signal.removeEventListener("abort", onAbort);
    rl.close();
    resume?.();
  }
}
