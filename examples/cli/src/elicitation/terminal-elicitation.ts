/**
 * MCP elicitation at the terminal: a server's question is shown with one
 * prompt per field (its default in brackets; Enter keeps it), and the words
 * `decline` or `cancel` at any prompt answer so. With no terminal to ask,
 * every question is declined.
 */
import readline from "node:readline";
import { type ElicitationRequest, type ElicitationResult, type ElicitationValue, describeField, parseFieldInput } from "./elicitation-field.js";

/** Options of {@link createTerminalElicitation}. */
export interface TerminalElicitationOptions {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Where the questions are written (stderr in `--json` mode, so stdout stays JSON). */
  output: NodeJS.WritableStream;
  /** Ctrl-C at a prompt: the host cancels the session (the question is cancelled). */
  onInterrupt?(): void;
  /** Called before the questions, returns a function called after them (pauses the spinner). */
  pause?(): () => void;
}

/**
 * The `mcp.onElicitation` callback of the CLI. Questions are asked one at a
 * time, even when servers ask in parallel.
 *
 * @example
 * const registry = await buildBuiltinToolRegistry({ workdir, mcp: { getSettings, onElicitation: createTerminalElicitation({ input: process.stdin, output: process.stdout }) } });
 */
export function createTerminalElicitation(options: TerminalElicitationOptions): (request: ElicitationRequest) => Promise<ElicitationResult> {
  let queue: Promise<unknown> = Promise.resolve();
  return (request) => {
    if (options.input.isTTY !== true) return Promise.resolve({ action: "decline" });
    const answer = queue.then(() => (request.signal.aborted ? ({ action: "cancel" } as const) : askForm(options, request)));
    queue = answer.catch(() => undefined);
    return answer;
  };
}

async function askForm(options: TerminalElicitationOptions, request: ElicitationRequest): Promise<ElicitationResult> {
  const resume = options.pause?.();
  const rl = readline.createInterface({ input: options.input, output: options.output, terminal: true });
  const lines = rl[Symbol.asyncIterator]();
  let interrupted = false;
  // In raw mode Ctrl-C reaches readline, not the process: cancel the session as a Ctrl-C elsewhere would.
  rl.once("SIGINT", () => {
    interrupted = true;
    options.onInterrupt?.();
    rl.close();
  });
  const onAbort = () => rl.close();
  request.signal.addEventListener("abort", onAbort, { once: true });
  try {
    options.output.write(
      `\nMCP server ${request.serverId} asks: ${request.message}\n(Enter keeps the [default]; type "decline" to refuse or "cancel" to dismiss.)\n`,
    );
    const schema = request.requestedSchema;
    const required = new Set(schema.required ?? []);
    const content: Record<string, ElicitationValue> = {};
    for (const [name, field] of Object.entries(schema.properties)) {
      const shown = field.default === undefined ? "" : ` [${Array.isArray(field.default) ? field.default.join(", ") : String(field.default)}]`;
      const label = `${field.title ?? name}${required.has(name) ? " *" : ""} (${describeField(field)})${shown}: `;
      if (field.description !== undefined) options.output.write(`  ${field.description}\n`);
      for (;;) {
        options.output.write(`  ${label}`);
        const next = await lines.next();
        if (next.done || interrupted) return { action: "cancel" };
        const text = String(next.value).trim();
        if (text.toLowerCase() === "decline") return { action: "decline" };
        if (text.toLowerCase() === "cancel") return { action: "cancel" };
        // Empty: the default (the client fills it in) or nothing for an optional field.
        if (text === "" && (field.default !== undefined || !required.has(name))) break;
        if (text === "") {
          options.output.write("  This field is required.\n");
          continue;
        }
        const parsed = parseFieldInput(field, text);
        if ("value" in parsed) {
          content[name] = parsed.value;
          break;
        }
        options.output.write(`  ${parsed.problem}.\n`);
      }
    }
    return { action: "accept", content };
  } finally {
    request.signal.removeEventListener("abort", onAbort);
    rl.close();
    resume?.();
  }
}
