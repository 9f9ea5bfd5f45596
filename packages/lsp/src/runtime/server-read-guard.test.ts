/**
 * The language servers' fs guard in real Node processes: what a guarded
 * process (its worker threads and the children it forks with their own
 * execArgv, as typescript-language-server forks tsserver) can read.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type LspHiddenPath, withServerReadGuard } from "./server-read-guard.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "lsp-read-guard-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));
const workspace = path.join(temporary, "work");
const outside = path.join(temporary, "outside");
fs.mkdirSync(path.join(workspace, "secret"), { recursive: true });
fs.mkdirSync(outside, { recursive: true });
fs.writeFileSync(path.join(workspace, "a.txt"), "A");
fs.writeFileSync(path.join(workspace, "secret", "key.txt"), "SECRET");
fs.writeFileSync(path.join(workspace, ".env"), "ENV");
fs.writeFileSync(path.join(outside, "o.txt"), "OUTSIDE");
fs.symlinkSync(path.join(outside, "o.txt"), path.join(workspace, "link.txt"));
// The probe lives in its own root (as a server's installation does).
const tools = path.join(temporary, "tools");
fs.mkdirSync(tools);

// The policy's minimatch, as the sdk passes it (lsp does not depend on it).
const minimatch = createRequire(path.resolve("packages/policy/package.json")).resolve("minimatch");
const hidden: LspHiddenPath[] = [
  { rule: "Read(secret/**)", bases: [workspace], self: false, globs: ["secret/**"], options: { dot: true, nocomment: true, nonegate: true }, minimatch },
  { rule: "Read(.env)", bases: null, self: false, globs: [".env"], options: { dot: true, nocomment: true, nonegate: true }, minimatch },
];

const PROBE = `
const fs = require("node:fs");
const { Worker, isMainThread, parentPort } = require("node:worker_threads");
const read = (file) => { try { return fs.readFileSync(file, "utf8"); } catch (error) { return error.code; } };
const report = () => ({
  a: read(${JSON.stringify(path.join(workspace, "a.txt"))}),
  secret: read(${JSON.stringify(path.join(workspace, "secret", "key.txt"))}),
  env: read(${JSON.stringify(path.join(workspace, ".env"))}),
  outside: read(${JSON.stringify(path.join(outside, "o.txt"))}),
  link: read(${JSON.stringify(path.join(workspace, "link.txt"))}),
  list: fs.readdirSync(${JSON.stringify(workspace)}).sort(),
  exists: fs.existsSync(${JSON.stringify(path.join(outside, "o.txt"))}),
});
if (process.argv[2] === "child") process.stdout.write(JSON.stringify(report()));
else if (!isMainThread) parentPort.postMessage(report());
else {
  const worker = new Worker(__filename);
  worker.on("message", async (fromWorker) => {
    const child = require("node:child_process").execFileSync(process.execPath, [__filename, "child"], { encoding: "utf8" });
    const promised = await fs.promises.readFile(${JSON.stringify(path.join(outside, "o.txt"))}, "utf8").catch((error) => error.code);
    process.stdout.write(JSON.stringify({ main: report(), worker: fromWorker, child: JSON.parse(child), promised }));
    worker.terminate();
  });
}`;

function runGuarded(): Record<string, unknown> {
  const script = path.join(tools, "probe.cjs");
  fs.writeFileSync(script, PROBE);
  const spawn = withServerReadGuard(
    { command: process.execPath, args: [script], cwd: workspace, env: { PATH: "/usr/bin:/bin" } },
    { roots: [workspace, tools], hidden },
  );
  const output = execFileSync(spawn.command, [...(spawn.args ?? [])], { cwd: spawn.cwd, env: spawn.env as NodeJS.ProcessEnv, encoding: "utf8" });
  return JSON.parse(output) as Record<string, unknown>;
}

describe("withServerReadGuard", () => {
  it("hides paths outside the roots, symlinks pointing out and hidden paths, in the process, its workers and children it forks", () => {
    const result = runGuarded();
    const expected = { a: "A", secret: "ENOENT", env: "ENOENT", outside: "ENOENT", link: "ENOENT", list: ["a.txt", "secret"], exists: false };
    // `secret` itself is not matched by `secret/**` (as the policy judges a Read of it); its contents are.
    expect(result.main).toEqual(expected);
    expect(result.worker).toEqual(expected);
    expect(result.child).toEqual(expected);
    expect(result.promised).toBe("ENOENT");
  });

  it("without the guard the same probe reads everything (the test can fail)", () => {
    const script = path.join(tools, "probe.cjs");
    fs.writeFileSync(script, PROBE);
    const output = JSON.parse(execFileSync(process.execPath, [script], { cwd: workspace, encoding: "utf8" })) as { main: Record<string, unknown> };
    expect(output.main).toMatchObject({ secret: "SECRET", outside: "OUTSIDE", link: "OUTSIDE" });
  });

  it("keeps a NODE_OPTIONS the config set, after the preload", () => {
    const spawn = withServerReadGuard(
      { command: process.execPath, cwd: workspace, env: { NODE_OPTIONS: "--max-old-space-size=512" } },
      { roots: [], hidden: [] },
    );
    expect(spawn.env?.NODE_OPTIONS).toMatch(/^--require ".+server-fs-guard\.cjs" --max-old-space-size=512$/);
  });
});
