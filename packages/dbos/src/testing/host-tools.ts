/**
 * The tools of the DBOS tool host: each run is logged to `runs.log` in the
 * host's workdir before its effect, so a harness counts runs per call id
 * across host processes; a call may hold (after its effect, before it
 * returns) until a marker file appears, so a harness can kill the host with
 * the effect done and the outcome unrecorded.
 */
import { appendFileSync, existsSync, mkdirSync, openSync, closeSync, fsyncSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type ToolContext, type ToolDefinition, defineTool } from "@agent-tools/core";
import { z } from "zod";

/** The file `AppendLine` appends to, in the host's workdir. */
export const APPENDED_FILE = "appended.log";
/** The file every tool run is logged to (`<tool> <call id>` per line), in the host's workdir. */
export const RUNS_FILE = "runs.log";
/** The folder `SetValue` writes and `ReadValue` reads, in the host's workdir. */
export const VALUES_FOLDER = "values";

const HOLD_POLL_MS = 20;

function appendDurably(file: string, line: string): void {
  const descriptor = openSync(file, "a");
  try {
    appendFileSync(descriptor, line);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

function logRun(context: ToolContext, toolName: string, announce: (line: string) => void): void {
  appendDurably(path.join(context.workdir, RUNS_FILE), `${toolName} ${context.callId}\n`);
  announce(`run ${context.callId}`);
}

async function hold(context: ToolContext, marker: string | undefined, announce: (line: string) => void): Promise<void> {
  if (marker === undefined) return;
  const file = path.join(context.workdir, marker);
  announce(`holding ${context.callId}`);
  while (!existsSync(file)) await new Promise((resolve) => setTimeout(resolve, HOLD_POLL_MS));
}

const markerSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/)
  .optional()
  .describe("Wait after the effect until this file exists in the workdir.");

/**
 * The host's tools: `AppendLine` (unsafe: appends `<call id> <text>`),
 * `SetValue` (idempotent: writes a value file atomically), `ReadValue`
 * (read-only). `announce` receives the progress lines (`run <id>`,
 * `holding <id>`).
 */
export function createHostTools(announce: (line: string) => void): ToolDefinition[] {
  const appendLine = defineTool({
    name: "AppendLine",
    description: "Appends a line holding the call id and the text to appended.log.",
    inputSchema: z.object({ text: z.string().max(200), holdUntil: markerSchema }),
    effects: "unsafe",
    async execute(input, context) {
      logRun(context, "AppendLine", announce);
      appendDurably(path.join(context.workdir, APPENDED_FILE), `${context.callId} ${input.text}\n`);
      await hold(context, input.holdUntil, announce);
      return { content: `appended ${context.callId}` };
    },
  });
  const setValue = defineTool({
    name: "SetValue",
    description: "Writes a value under a key (the same value again changes nothing).",
    inputSchema: z.object({ key: z.string().regex(/^[a-z0-9-]{1,40}$/), value: z.string().max(200), holdUntil: markerSchema }),
    effects: "idempotent",
    async execute(input, context) {
      logRun(context, "SetValue", announce);
      const folder = path.join(context.workdir, VALUES_FOLDER);
      mkdirSync(folder, { recursive: true });
      const temporary = path.join(folder, `.${input.key}.${process.pid}.tmp`);
      writeFileSync(temporary, input.value);
      renameSync(temporary, path.join(folder, input.key));
      await hold(context, input.holdUntil, announce);
      return { content: `set ${input.key}=${input.value}` };
    },
  });
  const readValue = defineTool({
    name: "ReadValue",
    description: "Reads the value under a key.",
    inputSchema: z.object({ key: z.string().regex(/^[a-z0-9-]{1,40}$/) }),
    metadata: { isReadOnly: true },
    effects: "none",
    execute(input, context) {
      logRun(context, "ReadValue", announce);
      const file = path.join(context.workdir, VALUES_FOLDER, input.key);
      return { content: existsSync(file) ? readFileSync(file, "utf8") : `(no value for ${input.key})` };
    },
  });
  return [appendLine, setValue, readValue] as ToolDefinition[];
}
