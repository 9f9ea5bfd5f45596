/**
 * Descriptors the host process inherited reach sandboxed processes: a host
 * started with an extra open descriptor (a pipe to its supervisor, a
 * socket-activated listener, a log file) passes it through bubblewrap to
 * every confined command, the language servers of `lsp: true` among them
 * (their stdin pipe is added the same way). Node opens its own files
 * close-on-exec and marks inherited descriptors 0 to the first gap after 15
 * close-on-exec at start (libuv's uv_disable_stdio_inheritance), but one
 * inherited above such a gap (here fd 200; this machine's own job runner
 * hands every process a pipe as fd 251) stays open across execa, bwrap and
 * the shell. The test starts a host (`edit-formats-host.mjs`) with a file
 * outside the workspace open as its fd 200, and a sandboxed Bash tries to
 * write into that file: stopped (the confined command holds only 0, 1, 2).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-sandbox-fds-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));
const hasBubblewrap = fs.existsSync("/usr/bin/bwrap");

describe.skipIf(!hasBubblewrap && !process.env.CI)("descriptors a host inherited", () => {
  // FIXED (F3): the sandbox passed every descriptor the host inherited without close-on-exec into the confined
  // process; bubblewrap now runs the command through a closer that leaves it only descriptors 0, 1 and 2.
  it("do not reach a sandboxed command", async () => {
    const workdir = path.join(temporary, "work");
    fs.mkdirSync(workdir, { recursive: true });
    const argumentsFile = path.join(temporary, "args.json");
    fs.writeFileSync(argumentsFile, JSON.stringify({ command: "echo LEAKED-INTO-HOST-FILE >&200" }));
    const options = { sandbox: { enabled: true }, dataDir: path.join(temporary, "data"), approval: { defaultDecision: "allow" } };
    // A shell opens a host file outside the workspace as fd 200 (no close-on-exec) and starts the host.
    const sideFile = path.join(temporary, "host-side.log");
    fs.writeFileSync(sideFile, "");
    const host = [
      process.execPath,
      "--import",
      "tsx",
      "--conditions=@agent-tools/source",
      path.join(here, "edit-formats-host.mjs"),
      workdir,
      "Bash",
      argumentsFile,
      JSON.stringify(options),
    ];
    const child = spawn("/bin/bash", ["-c", 'exec 200>>"$0"; exec "$@"', sideFile, ...host], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    child.stdout?.on("data", (chunk) => {
      stdout += chunk;
    });
    await new Promise((resolve) => child.on("close", resolve));
    expect(stdout).toContain("isError");
    expect(fs.readFileSync(sideFile, "utf8")).not.toContain("LEAKED-INTO-HOST-FILE");
  }, 60_000);
});
