import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SpawnOptions } from "@agent-tools/core";
import { afterAll, describe, expect, it } from "vitest";
import { probeBubblewrapSandbox } from "./probe-bubblewrap-sandbox.js";
import { resolveSandboxPolicy } from "./sandbox-policy.js";

// A host that inherited a descriptor above libuv's close-on-exec sweep (a shell's `exec 200>>file`, a job runner's fd 251)
// must not hand it to a confined command: the wrapper below opens a host file outside the workspace as fd 200 and 17 and execs bubblewrap.
const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-bwrap-fds-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));
const workdir = path.join(temporary, "work");
fs.mkdirSync(workdir);
const sideFile = path.join(temporary, "host-side.log");

const state = fs.existsSync("/usr/bin/bwrap") || process.env.CI ? await probeBubblewrapSandbox() : undefined;
const sandbox = state?.sandbox;

/** Runs the spawn confined, from a process holding `sideFile` open as fd 200 and 17 (no close-on-exec). */
async function runWithInheritedDescriptors(options: SpawnOptions): Promise<{ stdout: string; code: number | null }> {
  if (!sandbox) throw new Error("no sandbox");
  const policy = resolveSandboxPolicy({ settings: { enabled: true }, writableRoots: [workdir] });
  const confined = sandbox.confine(options, policy);
  const wrapper = 'exec 200>>"$0" 17>>"$0"; exec "$@"';
  const child = spawn("/bin/bash", ["--norc", "--posix", "-c", wrapper, sideFile, confined.command, ...(confined.args ?? [])], {
    cwd: workdir,
    env: confined.env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let stdout = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { stdout, code };
}

describe.skipIf(!sandbox)(`descriptors the host inherited (${state?.unavailable ?? "bubblewrap"})`, () => {
  it("do not reach a plain command: it holds only 0, 1, 2 and its own listing's descriptor", async () => {
    fs.writeFileSync(sideFile, "");
    const { stdout, code } = await runWithInheritedDescriptors({ command: "ls", args: ["/proc/self/fd"], cwd: workdir });
    expect(code).toBe(0);
    expect(stdout.trim().split("\n")).toEqual(["0", "1", "2", "3"]);
  });

  it("do not reach a shell command: writing to fd 200 or 17 fails and the host file stays empty", async () => {
    fs.writeFileSync(sideFile, "");
    const { stdout, code } = await runWithInheritedDescriptors({
      command: "echo LEAKED >&200; echo LEAKED >&17; ls /proc/self/fd | tr '\\n' ' '",
      shell: true,
      cwd: workdir,
    });
    expect(code).toBe(0);
    expect(stdout.trim()).toBe("0 1 2 3");
    expect(fs.readFileSync(sideFile, "utf8")).toBe("");
  });

  it("keeps the arguments exact, the environment as given and the exit code", async () => {
    const tricky = ["a b", "$HOME", "'quoted'", '"double"', "; rm -rf /", "", "*"];
    const printed = await runWithInheritedDescriptors({ command: "printf", args: ["[%s]\\n", ...tricky], cwd: workdir });
    expect(printed.stdout).toBe(tricky.map((value) => `[${value}]\n`).join(""));
    const env = { AGENT_TOOLS_MARK: "it's $here", PWD: "/somewhere/else" };
    // The wrapper's own bash adds PWD and SHLVL on its way to bubblewrap: the command still gets exactly the confined env.
    const listed = await runWithInheritedDescriptors({ command: "/usr/bin/env", env, cwd: workdir });
    const policy = resolveSandboxPolicy({ settings: { enabled: true }, writableRoots: [workdir] });
    const expected = sandbox?.confine({ command: "/usr/bin/env", env, cwd: workdir }, policy).env ?? {};
    const given = Object.entries(expected).map(([name, value]) => `${name}=${value}`);
    expect(listed.stdout.trim().split("\n").sort()).toEqual(given.sort());
    const bare = await runWithInheritedDescriptors({ command: "/usr/bin/env", cwd: workdir });
    expect(bare.stdout).not.toMatch(/^(PWD|SHLVL)=/m);
    expect((await runWithInheritedDescriptors({ command: "exit 7", shell: true, cwd: workdir })).code).toBe(7);
  });

  it("runs no startup file of its own: a plain command with BASH_ENV set does not source it", async () => {
    const startup = path.join(workdir, "startup.sh");
    fs.writeFileSync(startup, `echo SOURCED >> ${path.join(workdir, "sourced.log")}\n`);
    const { stdout, code } = await runWithInheritedDescriptors({ command: "echo", args: ["ran"], env: { BASH_ENV: startup }, cwd: workdir });
    expect({ stdout, code }).toEqual({ stdout: "ran\n", code: 0 });
    expect(fs.existsSync(path.join(workdir, "sourced.log"))).toBe(false);
  });
});
