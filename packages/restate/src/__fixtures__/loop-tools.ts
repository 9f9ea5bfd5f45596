// Host tools of the Restate tests, with real effects in `dir`:
// - AppendLine (unsafe, like Bash `echo id >> lines.txt`): appends the call id to lines.txt;
// - WriteNote (idempotent, like Write): writes notes/<name>, and appends the call id to runs.txt (one line per run).
// `hold: true` makes a call wait, after its effect, until the process is killed, the first time only: it
// leaves held-<call id> behind, so a second run (a bug for AppendLine) does not wait and shows as a second line.
// `delayMs` splits a pause around the effect, so random kills land before, in and after calls.
import { appendFileSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type ToolDefinition, defineTool } from "@agent-tools/core";
import { z } from "zod";

const holdInput = {
  hold: z.boolean().optional(),
  delayMs: z.number().int().min(0).max(5_000).optional(),
};

/** Appends durably (fsync), so a SIGKILL right after cannot lose the line. */
function appendDurably(file: string, text: string): void {
  appendFileSync(file, text);
  const descriptor = openSync(file, "r+");
  fsyncSync(descriptor);
  closeSync(descriptor);
}

async function pause(ms: number | undefined): Promise<void> {
  if (ms !== undefined && ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits forever the first time a call holds (the test kills the process meanwhile). */
async function holdOnce(dir: string, callId: string, hold: boolean | undefined): Promise<void> {
  const marker = path.join(dir, `held-${callId}`);
  if (hold !== true || existsSync(marker)) return;
  writeFileSync(marker, String(process.pid));
  await new Promise(() => {});
}

/** The tools, working in `dir`. */
export function loopTools(dir: string): ToolDefinition[] {
  mkdirSync(path.join(dir, "notes"), { recursive: true });
  const appendLine = defineTool({
    name: "AppendLine",
    description: "Appends the call id to lines.txt.",
    inputSchema: z.object(holdInput),
    effects: "unsafe",
    async execute(input, context) {
      await pause(input.delayMs === undefined ? undefined : input.delayMs / 2);
      appendDurably(path.join(dir, "lines.txt"), `${context.callId}\n`);
      await holdOnce(dir, context.callId, input.hold);
      await pause(input.delayMs === undefined ? undefined : input.delayMs / 2);
      return { content: `appended ${context.callId}` };
    },
  });
  const writeNote = defineTool({
    name: "WriteNote",
    description: "Writes notes/<name> with content.",
    inputSchema: z.object({ name: z.string().regex(/^[a-z0-9-]+$/), content: z.string(), ...holdInput }),
    effects: "idempotent",
    async execute(input, context) {
      appendDurably(path.join(dir, "runs.txt"), `${context.callId}\n`);
      await pause(input.delayMs === undefined ? undefined : input.delayMs / 2);
      writeFileSync(path.join(dir, "notes", input.name), input.content);
      await holdOnce(dir, context.callId, input.hold);
      await pause(input.delayMs === undefined ? undefined : input.delayMs / 2);
      return { content: `wrote ${input.name} (${input.content.length} characters)` };
    },
  });
  return [appendLine, writeNote];
}
