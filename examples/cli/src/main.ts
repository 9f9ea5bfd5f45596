#!/usr/bin/env node
/**
 * Entry point of the example CLI: wires {@link runCli} to the process.
 * Ctrl-C (or SIGTERM) cancels the running model request and tool calls; a
 * second Ctrl-C exits at once.
 */
import { runCli } from "./run-cli.js";

const controller = new AbortController();
let interrupts = 0;
let firstInterruptAt = 0;
process.on("SIGINT", () => {
  interrupts += 1;
  // A terminal's Ctrl-C can arrive twice at once (directly and relayed by a
  // wrapper such as tsx): only a later, deliberate second Ctrl-C forces the exit.
  if (interrupts > 1 && Date.now() - firstInterruptAt > 1000) process.exit(130);
  if (interrupts === 1) firstInterruptAt = Date.now();
  controller.abort();
});
// A plain kill ends the session the same way, so temporary directories and processes are cleaned up.
process.on("SIGTERM", () => controller.abort());

// `pnpm run demo -- --json` hands the script `--yes -- --json`: drop the
// separator so the flags after it still count as flags.
const argv = process.argv.slice(2);
const separator = argv.indexOf("--");
if (separator !== -1) argv.splice(separator, 1);

const code = await runCli({
  argv,
  env: process.env,
  cwd: process.cwd(),
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  signal: controller.signal,
});
process.exitCode = code;
// stdin may hold the event loop open after an approval prompt.
process.stdin.unref?.();
