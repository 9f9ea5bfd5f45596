/**
 * The demo's scripted model: a realistic session on the sample project that
 * plans with TaskCreate, finds the bug with Glob and Grep, Reads the file,
 * fixes it with an Edit whose LF `old_string` meets a CRLF file (the tolerant
 * matcher's `line-endings` pass), runs the sample's tests as a resumable Bash
 * session and follows it with ProcessWait.
 *
 * Each step looks at the tool results the registry sent back (session id,
 * cursor, status, the Grep hit), as a real model would; it does not assume
 * what the tools answered.
 */
import type { ModelMessage, ModelRequest, ModelResponse, ModelToolCall } from "@agent-tools/core";
import { SAMPLE_BUGGY_FILE, SAMPLE_BUGGY_LINE, SAMPLE_FIXED_LINE, SAMPLE_TEST_COMMAND } from "./sample-project.js";

/** The prompt the demo "types". */
export const DEMO_PROMPT = "The cart tests fail when a discount is set. Find the bug, fix it and prove the tests pass.";

/** How the scripted session went. */
export interface DemoOutcome {
  /** The Edit succeeded. */
  edited: boolean;
  /** The matcher pass the Edit reported, when the tool said. */
  matchStrategy?: string;
  /** The sample's tests ran to completion and exited 0. */
  testsPassed: boolean;
  /** Why the script gave up, if it did. */
  failure?: string;
}

type Stage = "plan" | "search" | "read" | "edit" | "test" | "follow" | "wrap-up" | "done";

const OLD_CODE = `    throw new RangeError('percent must be between 0 and 100');\n  }\n  ${SAMPLE_BUGGY_LINE}\n}\n`;
const NEW_CODE = `    throw new RangeError('percent must be between 0 and 100');\n  }\n  ${SAMPLE_FIXED_LINE}\n}\n`;

/**
 * A scripted model session, one response per model turn.
 *
 * @example
 * const script = new DemoScript();
 * const model = createScriptedModel(script); // see demo-model.ts
 */
export class DemoScript {
  private stage: Stage = "plan";
  private callCounter = 0;
  private readonly state: DemoOutcome = { edited: false, testsPassed: false };

  /** What happened so far. */
  get outcome(): DemoOutcome {
    return { ...this.state };
  }

  /** The next assistant turn, given the conversation so far. */
  respond(request: ModelRequest): ModelResponse {
    const results = latestToolResults(request.messages);
    const failed = results.find((result) => result.isError && !result.toolName.startsWith("Task"));
    if (failed && this.stage !== "done") {
      this.state.failure = `${failed.toolName} failed: ${failed.content.split("\n")[0]}`;
      this.stage = "done";
      return answer(`I could not finish: ${this.state.failure}`);
    }
    switch (this.stage) {
      case "plan":
        this.stage = "search";
        return this.turn("I'll plan the work, then look for the discount logic.", [
          this.call("TaskCreate", {
            subject: "Find the discount bug",
            description: "Locate where cart discounts are computed.",
            activeForm: "Finding the discount bug",
          }),
          this.call("TaskCreate", {
            subject: "Fix applyDiscount",
            description: "Make the discount a percentage of the amount.",
            activeForm: "Fixing applyDiscount",
          }),
          this.call("TaskCreate", {
            subject: "Run the tests",
            description: `Run \`${SAMPLE_TEST_COMMAND}\` and check that every test passes.`,
            activeForm: "Running the tests",
          }),
        ]);
      case "search":
        this.stage = "read";
        return this.turn("", [
          this.call("TaskUpdate", { taskId: "1", status: "in_progress" }),
          this.call("Glob", { pattern: "**/*.js" }),
          this.call("Grep", { pattern: "applyDiscount", path: "src" }),
        ]);
      case "read": {
        this.stage = "edit";
        const grep = results.find((result) => result.toolName === "Grep")?.content ?? "";
        return this.turn("`applyDiscount` is defined in the pricing module; let me read it.", [this.call("Read", { path: definingFile(grep) })]);
      }
      case "edit":
        this.stage = "test";
        return this.turn("Found it: `applyDiscount` subtracts the percentage itself (`amount - percent`) instead of that percentage of the amount.", [
          this.call("TaskUpdate", { taskId: "1", status: "completed" }),
          this.call("TaskUpdate", { taskId: "2", status: "in_progress" }),
          this.call("Edit", { path: SAMPLE_BUGGY_FILE, old_string: OLD_CODE, new_string: NEW_CODE }),
        ]);
      case "test": {
        const edit = results.find((result) => result.toolName === "Edit");
        this.state.edited = edit !== undefined && !edit.isError;
        this.state.matchStrategy = matchStrategyOf(edit?.content ?? "");
        this.stage = "follow";
        return this.turn("Now the tests. They take a couple of seconds, so I'll start them as a session and follow it.", [
          this.call("TaskUpdate", { taskId: "2", status: "completed" }),
          this.call("TaskUpdate", { taskId: "3", status: "in_progress" }),
          this.call("Bash", { command: SAMPLE_TEST_COMMAND, yield_time_ms: 500 }),
        ]);
      }
      case "follow": {
        const shell = [...results].reverse().find((result) => result.toolName === "Bash" || result.toolName === "ProcessWait");
        const session = parseShellResult(shell?.content ?? "");
        if (session.status === "running" && session.sessionId) {
          return this.turn("", [
            this.call("ProcessWait", { session_id: session.sessionId, ...(session.cursor !== undefined ? { cursor: session.cursor } : {}) }),
          ]);
        }
        this.state.testsPassed = session.status === "completed" && (session.exitCode === undefined || session.exitCode === 0);
        if (!this.state.testsPassed) {
          this.state.failure = `the tests ended with status ${session.status ?? "unknown"}`;
          this.stage = "done";
          return answer(`The fix did not make the tests pass (${session.status ?? "unknown status"}). The output above shows which ones fail.`);
        }
        this.stage = "wrap-up";
        return this.turn("All tests pass.", [this.call("TaskUpdate", { taskId: "3", status: "completed" })]);
      }
      case "wrap-up":
        this.stage = "done";
        return answer(
          [
            `Fixed the discount bug in ${SAMPLE_BUGGY_FILE}: \`applyDiscount\` now takes \`percent\` percent of the amount`,
            `(\`amount - (amount * percent) / 100\`) instead of subtracting the number itself.`,
            this.state.matchStrategy === "line-endings"
              ? "The file uses CRLF line endings and my old_string used LF: the Edit matched after normalising line endings and kept the file's CRLF."
              : `The Edit matched with the ${this.state.matchStrategy ?? "exact"} strategy.`,
            `\`${SAMPLE_TEST_COMMAND}\` now passes.`,
          ].join("\n"),
        );
      case "done":
        return answer("The session is over.");
    }
  }

  private call(name: string, args: Record<string, unknown>): ModelToolCall {
    this.callCounter += 1;
    return { id: `call_demo_${this.callCounter}`, name, arguments: JSON.stringify(args) };
  }

  private turn(text: string, toolCalls: ModelToolCall[]): ModelResponse {
    return { text, toolCalls, finishReason: "tool-calls" };
  }
}

function answer(text: string): ModelResponse {
  return { text, toolCalls: [], finishReason: "stop" };
}

/** A tool result message of the conversation. */
export type ToolMessage = Extract<ModelMessage, { role: "tool" }>;

/**
 * The tool results that followed the last assistant message: what a scripted
 * model looks at to decide its next step.
 *
 * @example
 * const last = latestToolResults(request.messages).at(-1);
 * if (last?.isError) return answer("The call failed.");
 */
export function latestToolResults(messages: readonly ModelMessage[]): ToolMessage[] {
  const results: ToolMessage[] = [];
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index]!;
    if (message.role !== "tool") break;
    results.unshift(message);
  }
  return results;
}

/** The file whose Grep hit defines the function, else the known buggy file. */
function definingFile(grepText: string): string {
  for (const line of grepText.split("\n")) {
    const match = /^(.+?):\d+:.*function applyDiscount/.exec(line.trim());
    if (match) return match[1]!.replace(/^\.\//, "");
  }
  return SAMPLE_BUGGY_FILE;
}

/** The matcher pass an Edit result describes (its note to the model), `exact` when it has none. */
export function matchStrategyOf(editText: string): string {
  if (/line[- ]endings/i.test(editText)) return "line-endings";
  if (/trailing[- ]whitespace/i.test(editText)) return "trailing-whitespace";
  if (/indent/i.test(editText)) return "indentation";
  return "exact";
}

/** Reads `status`, `session_id`, `cursor` and `exit_code` from a shell result text (lines or JSON). */
export function parseShellResult(text: string): { status?: string; sessionId?: string; cursor?: number; exitCode?: number } {
  const field = (name: string) => new RegExp(`"?${name}"?\\s*[:=]\\s*"?([A-Za-z0-9_:.-]+)"?`).exec(text)?.[1];
  const cursor = field("cursor");
  const exitCode = field("exit_code");
  return {
    status: field("status"),
    sessionId: field("session_id"),
    cursor: cursor !== undefined && /^\d+$/.test(cursor) ? Number(cursor) : undefined,
    exitCode: exitCode !== undefined && /^-?\d+$/.test(exitCode) ? Number(exitCode) : undefined,
  };
}
