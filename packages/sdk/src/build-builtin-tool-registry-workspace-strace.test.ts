/**
 * A registry on a non-local workspace (memory, SSH) touches no local file
 * outside its dataDir and starts no local process: the scenario runs in a
 * child process under strace, which records every file and exec syscall.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startTestSshd } from "@agent-tools/ssh/testing";
import { afterAll, describe, expect, it } from "vitest";
import { type TracedAccess, tracedAfter, within } from "./__fixtures__/strace-log.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-workspace-strace-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

/** A fresh dataDir on the host (the registry's own files). */
function _dataDir(name: string): string {
  const dir = path.join(temporary, name, "data");
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const scenario = path.join(path.dirname(fileURLToPath(import.meta.url)), "__fixtures__", "workspace-registry-process.mjs");

describe("a registry on a non-local workspace, watched by strace", () => {
  it("reads and writes no local file outside its dataDir (the workspace's own path on this disk untouched) and starts no local tool process", async () => {
    const base = path.join(temporary, "strace");
    // A decoy at the workspace's path on this disk: a tool that fell back to the local disk would touch it.
    const decoy = path.join(base, "root");
    fs.mkdirSync(path.join(decoy, "src"), { recursive: true });
    fs.mkdirSync(path.join(decoy, "notes"), { recursive: true });
    for (const file of ["README.md", "src/a.ts", "notes/old.txt"]) fs.writeFileSync(path.join(decoy, file), "decoy on the local disk\n");
    const outcome = await runWatchedScenario(base, decoy);
    expect(outcome.results.find((result) => result.name === "Bash")?.code).toBe("unsupported_target");
  }, 240_000);

  it("on an SSH workspace (the test sshd), runs the commands over SSH and still touches nothing local but its dataDir", async () => {
    const sshd = await startTestSshd();
    try {
      const ssh = { host: sshd.host, port: sshd.port, username: sshd.username, privateKey: sshd.privateKey, hostKey: sshd.hostKeyFingerprint };
      // The server runs on this machine: its root is a local path the registry's own process must never touch.
      const outcome = await runWatchedScenario(path.join(temporary, "strace-ssh"), sshd.root, ssh);
      const texts = outcome.results.map((result) => `${result.name}: ${result.text}`).join("\n");
      expect(texts).toContain("remote-bash");
      expect(texts).toContain(`${sshd.root}/src`);
      expect(texts).toContain("managed-line");
      expect(
        outcome.results
          .filter((result) => result.name === "Bash" || result.name === "ManagedProcess" || result.name === "ProcessStop")
          .every((result) => !result.isError),
      ).toBe(true);
    } finally {
      await sshd.stop();
    }
  }, 240_000);
});

type ScenarioOutcome = { tools: string[]; results: Array<{ name: string; isError?: boolean; code?: string; text?: string; missing?: boolean }> };

/**
 * Runs the scenario fixture under strace (a memory workspace, or the SSH one
 * `ssh` names, rooted at `root`) and checks the trace: nothing touched at
 * `root` on this disk, no write outside the dataDir, no read outside the
 * dataDir, the code and the system, no exec. Returns the scenario's results.
 */
async function runWatchedScenario(base: string, root: string, ssh?: Record<string, unknown>): Promise<ScenarioOutcome> {
  const strace = ["/usr/bin/strace", "/bin/strace"].find((candidate) => fs.existsSync(candidate));
  expect(strace, "strace is missing: scripts/setup.sh installs it (Debian package strace)").toBeDefined();
  const data = path.join(base, "data");
  fs.mkdirSync(data, { recursive: true });
  const marker = `/__agent_tools_scenario_${process.pid}__`;
  const traceFile = path.join(base, "trace.txt");
  const args = [scenario, root, data, marker, ...(ssh === undefined ? [] : [JSON.stringify(ssh)])];
  const { stdout } = await promisify(execFile)(
    strace as string,
    ["-f", "-qq", "-e", "trace=file,process", "-o", traceFile, process.execPath, "--import", "tsx", "--conditions=@agent-tools/source", ...args],
    { cwd: repositoryRoot, timeout: 180_000, env: { ...process.env, TSX_DISABLE_CACHE: "1" } },
  );
  const outcome = JSON.parse(stdout.trim().split("\n").at(-1) as string) as ScenarioOutcome;
  // The scenario ran every call (the default chat tools are there); every one answered as expected.
  expect(outcome.results.filter((result) => result.missing)).toEqual([]);
  expect(outcome.results.find((result) => result.name === "ProcessWait")?.code).toBe("not_found");
  const failed = outcome.results.filter((result) => result.isError && !(ssh === undefined && result.name === "Bash") && result.name !== "ProcessWait");
  expect(failed.map((result) => `${result.name}: ${result.text}`)).toEqual([]);

  const { accesses, execs } = tracedAfter(fs.readFileSync(traceFile, "utf8"), marker, repositoryRoot);
  expect(accesses.length).toBeGreaterThan(0);
  // Nothing runs (tsx's esbuild service, the scenario's loader, is left out above).
  expect(execs).toEqual([]);
  const nodePrefix = path.resolve(path.dirname(process.execPath), "..");
  // The code (the repository, Node) and the system's read-only places (the shell tools look for /bin/bash) may be read.
  const readable = [data, repositoryRoot, "/usr", "/lib", "/lib64", "/bin", "/sbin", "/etc", "/proc", "/sys", "/dev", nodePrefix];
  const ancestorOfAllowed = (target: string) => [data, repositoryRoot].some((allowed) => within(target, allowed));
  // tsx's loader thread (inside the node process) probes whether the file system is case-sensitive with the cwd's letters in the other case (upper-cased for /work/main, toggled for /tmp/tmp.MD33VOKmxY).
  const loaderProbe = (access: TracedAccess) =>
    access.call === "access" && access.path !== repositoryRoot && access.path.toLowerCase() === repositoryRoot.toLowerCase();
  const touchedRoot = accesses.filter((access) => within(root, access.path));
  const writesOutside = accesses.filter((access) => access.writes && !within(data, access.path) && access.path !== "/dev/null");
  const readsOutside = accesses.filter(
    (access) => !access.writes && !readable.some((prefix) => within(prefix, access.path)) && !ancestorOfAllowed(access.path) && !loaderProbe(access),
  );
  const show = (list: TracedAccess[]) => list.map((access) => `${access.during}: ${access.call} ${access.path}`);
  expect(show(touchedRoot), "the workspace's path on the local disk was touched").toEqual([]);
  expect(show(writesOutside), "local writes outside the dataDir").toEqual([]);
  expect(show(readsOutside), "local reads outside the dataDir and the code").toEqual([]);
  return outcome;
}
