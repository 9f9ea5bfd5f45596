/**
 * Attacks on the lock and the atomic write of `@agent-tools/file-io`, as a
 * model plants things with its own Bash before it calls Write or Edit.
 *
 * What worked before the fix: a FIFO named like a file's lock
 * (`mkfifo .a.txt.agent-tools.lock`, then Write `a.txt`) hung the whole host:
 * the writer read the lock with `readFileSync` to see whether its holder was
 * gone, which blocks the event loop until something writes to the FIFO. A
 * lock that is a symlink to `/dev/zero` made the host read forever. The lock
 * is now opened with O_NOFOLLOW | O_NONBLOCK and read up to 256 bytes; a lock
 * that is not a regular file is no lock any writer made, and is set aside.
 *
 * Each Write runs in a child node process (the public SDK entry) killed after
 * a generous wait, so a hang is a failed assertion, not a stuck test run.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-file-io-lock-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));
const here = path.dirname(fileURLToPath(import.meta.url));

/** The host: a registry that runs `plant` with Bash, then Read, Write and Edit of `a.txt`; prints each result as a JSON line. */
const HOST = `
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { toolResultText } from "@agent-tools/core";
const [workdir, dataDir, plant] = process.argv.slice(1);
const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false });
const call = async (name, args) => {
  const result = await registry.executeToolCall({ id: name + Math.random(), name, arguments: args });
  console.log(JSON.stringify({ name, isError: result.isError === true, text: toolResultText(result, "").slice(0, 400) }));
};
await call("Bash", { command: plant });
await call("Read", { path: "a.txt" });
await call("Write", { path: "a.txt", content: "new content\\n" });
await call("Edit", { path: "a.txt", old_string: "new content", new_string: "edited content" });
await registry.close();
console.log("HOST-DONE");
process.exit(0);
`;

function runHost(label: string, plant: string): Promise<{ lines: string[]; killed: boolean; workdir: string }> {
  const workdir = path.join(temporary, label, "work");
  fs.mkdirSync(workdir, { recursive: true });
  fs.writeFileSync(path.join(workdir, "a.txt"), "old content\n");
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", HOST, workdir, path.join(temporary, label, "data"), plant], {
      cwd: here,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let killed = false;
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
    });
    child.stderr.on("data", () => undefined);
    // Generous: a healthy host ends in well under a second; a hung one never does.
    const timer = setTimeout(() => {
      killed = true;
      child.kill("SIGKILL");
    }, 45_000);
    child.on("close", () => {
      clearTimeout(timer);
      resolve({ lines: out.split("\n").filter(Boolean), killed, workdir });
    });
  });
}

const PLANTS: Record<string, string> = {
  "a FIFO": "mkfifo .a.txt.agent-tools.lock",
  "a symlink to /dev/zero": "ln -s /dev/zero .a.txt.agent-tools.lock",
  "a symlink to a FIFO": "mkfifo ../pipe && ln -s ../pipe .a.txt.agent-tools.lock",
  "a folder": "mkdir .a.txt.agent-tools.lock",
  "a dangling symlink": "ln -s /nonexistent/lock .a.txt.agent-tools.lock",
};

describe("attack: planted lock files of the file tools", () => {
  for (const [what, plant] of Object.entries(PLANTS)) {
    it(`a lock that is ${what} neither hangs the host nor stops the write`, async () => {
      const run = await runHost(what.replace(/\W+/g, "-"), plant);
      expect(run.killed, `host hung; output so far: ${run.lines.join(" | ")}`).toBe(false);
      expect(run.lines.at(-1)).toBe("HOST-DONE");
      const results = run.lines.slice(0, -1).map((line) => JSON.parse(line) as { name: string; isError: boolean; text: string });
      expect(results.map((result) => [result.name, result.isError])).toEqual([
        ["Bash", false],
        ["Read", false],
        ["Write", false],
        ["Edit", false],
      ]);
      expect(fs.readFileSync(path.join(run.workdir, "a.txt"), "utf8")).toBe("edited content\n");
      // Nothing followed the link: /dev/zero's target untouched, no lock or temporary file left in a listing of the folder.
      expect(fs.readdirSync(run.workdir).filter((name) => name.endsWith(".tmp") || name.endsWith(".agent-tools.lock"))).toEqual([]);
    }, 60_000);
  }
});
