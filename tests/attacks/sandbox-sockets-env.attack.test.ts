/**
 * Attacks on the bubblewrap command sandbox (Unix sockets, the environment and credential files, an unprivileged uid; capabilities and mounts are in sandbox.attack.test.ts), made the way a model makes
 * them: Bash calls through `executeToolCall` of a `buildBuiltinToolRegistry`
 * registry with `sandbox: { enabled: true }`, real bubblewrap. Every check
 * that something did not happen looks on the host, and each attack has a
 * control showing the same command works where it is allowed (so a refusal
 * is the sandbox's doing, not a typo's).
 *
 * Runs as root (as CI does) and as an unprivileged user; a case that needs
 * one of them says so in its name and is skipped with the reason otherwise.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toolResultText } from "../../packages/core/src/index.js";
import { BubblewrapSandbox } from "../../packages/node/src/index.js";
import { resolveSandboxPolicy } from "../../packages/node/src/internal.js";
import { HOST_USER_NAMESPACE, NO_CAPABILITIES, bash, hostVisible, isRoot, runParent, sandboxed, skipReason, temporary } from "./sandbox-attack-harness.js";

async function greetingServer(address: string): Promise<() => Promise<void>> {
  const server = net.createServer((socket) => socket.end("hello from the host\n"));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(address, resolve);
  });
  return () => new Promise((resolve) => server.close(() => resolve()));
}

/** One confined `node -e` client for every address: prints `<label>: got <greeting>` or `<label>: error <code>` per address. */
function clientCommand(addresses: Record<string, string>): string {
  const list = JSON.stringify(Object.entries(addresses));
  const script = `const net = require("net"); (async () => { for (const [label, address] of ${list}) await new Promise((done) => { const s = net.connect(address); let said = ""; s.on("data", (d) => (said += d)); s.on("end", () => { console.log(label + ": got " + said.trim()); done(); }); s.on("error", (e) => { console.log(label + ": error " + e.code); done(); }); }); })();`;
  return `${JSON.stringify(process.execPath)} -e '${script}'`;
}

describe.skipIf(skipReason !== undefined)("sandbox attacks: Unix sockets with the network off", () => {
  it("a host server's socket in a read-only root, in the home directory, under /run or abstract is unreachable; one in the workspace is reachable", async () => {
    const readOnly = fs.mkdtempSync(path.join(temporary, "ro-root-"));
    const home = fs.mkdtempSync(path.join(hostVisible, "sockets-"));
    const runDirectory = runParent === undefined ? undefined : fs.mkdtempSync(path.join(runParent, "agent-tools-attack-"));
    const { registry, workdir } = await sandboxed({ additionalRoots: [{ alias: "reference", path: readOnly, access: "read" }] });
    const unreachable: Record<string, string> = {
      readOnlyRoot: path.join(readOnly, "service.sock"),
      home: path.join(home, "service.sock"),
      abstract: `\0agent-tools-attack-${process.pid}-${Date.now()}`,
      ...(runDirectory === undefined ? {} : { run: path.join(runDirectory, "service.sock") }),
    };
    const reachable = { workspace: path.join(workdir, "dev.sock") };
    const closers = await Promise.all([...Object.values(unreachable), ...Object.values(reachable)].map(greetingServer));
    try {
      const { output } = await bash(registry, clientCommand({ ...unreachable, ...reachable }));
      expect(output).toMatch(/^workspace: got hello from the host$/m);
      for (const label of Object.keys(unreachable)) expect(output, label).toMatch(new RegExp(`^${label}: error E[A-Z]+$`, "m"));
      expect(output.match(/hello from the host/g)).toHaveLength(1);
      // Control: on an allowed network the same client reaches them all (Unix sockets belong to the network).
      const online = await sandboxed({
        sandbox: { enabled: true, allowNetwork: true },
        additionalRoots: [{ alias: "reference", path: readOnly, access: "read" }],
      });
      const reached = await bash(online.registry, clientCommand(unreachable));
      for (const label of Object.keys(unreachable)) expect(reached.output, label).toMatch(new RegExp(`^${label}: got hello from the host$`, "m"));
    } finally {
      await Promise.all(closers.map((close) => close()));
      if (runDirectory !== undefined) fs.rmSync(runDirectory, { recursive: true, force: true });
    }
  });

  it.skipIf(runParent === undefined)(
    "a socket bound under /run after the command started is unreachable too (the private /run, not the start-time mask)",
    async () => {
      const runDirectory = fs.mkdtempSync(path.join(runParent as string, "agent-tools-attack-late-"));
      const { registry, workdir } = await sandboxed();
      let close: (() => Promise<void>) | undefined;
      try {
        // The command signals it runs, waits for the host's server, then connects.
        const call = bash(
          registry,
          `touch started; while [ ! -e ready ]; do sleep 0.05; done; ${clientCommand({ late: path.join(runDirectory, "late.sock") })}`,
        );
        const deadline = Date.now() + 20_000;
        while (!fs.existsSync(path.join(workdir, "started")) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        close = await greetingServer(path.join(runDirectory, "late.sock"));
        fs.writeFileSync(path.join(workdir, "ready"), "");
        const { output } = await call;
        expect(output).toMatch(/^late: error E[A-Z]+$/m);
        expect(output).not.toContain("hello from the host");
      } finally {
        await close?.();
        fs.rmSync(runDirectory, { recursive: true, force: true });
      }
    },
  );

  it.skipIf(runParent === undefined)(
    "a Bash cwd under the private /run or /tmp shows none of the host's: no socket bound there later, no file of the host's /tmp",
    async () => {
      const runDirectory = fs.mkdtempSync(path.join(runParent as string, "agent-tools-attack-cwd-"));
      const tmpDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-attack-cwd-"));
      fs.writeFileSync(path.join(tmpDirectory, "host-private.txt"), "HOST-TMP-FILE\n");
      const { registry, workdir } = await sandboxed();
      let close: (() => Promise<void>) | undefined;
      try {
        const files = await registry.executeToolCall({
          id: "cwd-tmp",
          name: "Bash",
          arguments: { command: "cat host-private.txt; ls -a | sed 's/^/entry: /'; true", cwd: tmpDirectory, yield_time_ms: 30_000 },
        });
        const listed = toolResultText(files, "");
        expect(listed).toContain("sandbox: bubblewrap");
        expect(listed).toContain("entry: ..");
        expect(listed).not.toContain("HOST-TMP-FILE");
        expect(listed).not.toContain("entry: host-private.txt");
        const started = path.join(workdir, "started");
        const ready = path.join(workdir, "ready");
        const call = registry.executeToolCall({
          id: "cwd-run",
          name: "Bash",
          arguments: {
            command: `touch ${started}; while [ ! -e ${ready} ]; do sleep 0.05; done; ${clientCommand({ late: path.join(runDirectory, "late.sock"), relative: "late.sock" })}`,
            cwd: runDirectory,
            yield_time_ms: 30_000,
          },
        });
        const deadline = Date.now() + 20_000;
        while (!fs.existsSync(started) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        close = await greetingServer(path.join(runDirectory, "late.sock"));
        fs.writeFileSync(ready, "");
        const output = toolResultText(await call, "");
        expect(output).toMatch(/^late: error E[A-Z]+$/m);
        expect(output).toMatch(/^relative: error E[A-Z]+$/m);
        expect(output).not.toContain("hello from the host");
      } finally {
        await close?.();
        fs.rmSync(runDirectory, { recursive: true, force: true });
        fs.rmSync(tmpDirectory, { recursive: true, force: true });
      }
    },
  );
});

describe.skipIf(skipReason !== undefined)("sandbox attacks: the host's environment and credential files", () => {
  it("the host's API keys do not reach a confined command; allow-listed names and the host's shell env do", async () => {
    const secret = `sk-attack-${process.pid}`;
    const added = {
      OPENAI_API_KEY: secret,
      AWS_SECRET_ACCESS_KEY: secret,
      AGENT_TOOLS_ATTACK_ALLOWED: "allowed-one",
      AGENT_TOOLS_ATTACK_PREFIX_TWO: "allowed-two",
    };
    Object.assign(process.env, added);
    try {
      const { registry } = await sandboxed({
        sandbox: { enabled: true, environment: { allow: ["AGENT_TOOLS_ATTACK_ALLOWED", "AGENT_TOOLS_ATTACK_PREFIX_*"] } },
        shell: { env: { AGENT_TOOLS_HOST_GIVEN: "given" } },
      });
      const { output } = await bash(registry, "env; cat /proc/self/environ | tr '\\0' '\\n'");
      expect(output).not.toContain(secret);
      expect(output).not.toMatch(/OPENAI_API_KEY|AWS_SECRET_ACCESS_KEY/);
      expect(output).toMatch(/^AGENT_TOOLS_ATTACK_ALLOWED=allowed-one$/m);
      expect(output).toMatch(/^AGENT_TOOLS_ATTACK_PREFIX_TWO=allowed-two$/m);
      expect(output).toMatch(/^AGENT_TOOLS_HOST_GIVEN=given$/m);
      expect(output).toMatch(/^PATH=/m);
      expect(output).toMatch(/^HOME=/m);
    } finally {
      for (const name of Object.keys(added)) delete process.env[name];
    }
  });

  it("the home directory's credential files and folders are hidden by default", async () => {
    const home = fs.mkdtempSync(path.join(hostVisible, "home-"));
    const credentials = [
      ".npmrc",
      ".git-credentials",
      ".netrc",
      ".pgpass",
      ".pypirc",
      ".cargo/credentials",
      ".cargo/credentials.toml",
      ".config/git/credentials",
      ".config/gh/hosts.yml",
      ".docker/config.json",
    ];
    for (const [index, name] of credentials.entries()) {
      fs.mkdirSync(path.dirname(path.join(home, name)), { recursive: true });
      fs.writeFileSync(path.join(home, name), `CREDENTIAL-${index}\n`);
    }
    fs.writeFileSync(path.join(home, ".bashrc"), "visible rc\n");
    const previousHome = process.env.HOME;
    process.env.HOME = home;
    try {
      const { registry } = await sandboxed();
      const { output } = await bash(registry, `cd ${home} && cat .bashrc ${credentials.join(" ")}; echo "listed: $(ls -A .config/gh .docker | grep -c .)"`);
      expect(output).toContain("visible rc");
      expect(output).not.toMatch(/CREDENTIAL-\d/);
      // Hidden folders are empty (ls prints only their two headings).
      expect(output).toMatch(/^listed: 2$/m);
    } finally {
      process.env.HOME = previousHome;
    }
  });
});

const setprivPath = ["/usr/bin/setpriv", "/bin/setpriv"].find((candidate) => fs.existsSync(candidate));
const unprivilegedReason = !isRoot
  ? "it needs root to switch to uid 65534 (run as an unprivileged user, every case above already is that proof)"
  : setprivPath === undefined
    ? "setpriv (util-linux) is not installed"
    : undefined;
if (unprivilegedReason) console.warn(`sandbox attacks: the uid-65534 case is skipped: ${unprivilegedReason}`);

describe.skipIf(skipReason !== undefined)("sandbox attacks: the same confinement started by an unprivileged uid", () => {
  it.skipIf(unprivilegedReason !== undefined)(
    "bwrap started as uid 65534 with the same arguments works, has no capability and cannot unhide (root host only)",
    async () => {
      const base = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sandbox-uid-"));
      try {
        fs.chmodSync(base, 0o755);
        const work = path.join(base, "work");
        fs.mkdirSync(work);
        fs.chownSync(work, 65534, 65534);
        const secret = path.join(work, "secret.txt");
        fs.writeFileSync(secret, "UID-SECRET\n", { mode: 0o644 });
        const policy = resolveSandboxPolicy({ settings: { enabled: true, hiddenPaths: [secret] }, writableRoots: [work] });
        const command = [
          "grep -E '^Cap(Eff|Prm):' /proc/self/status",
          "echo userns=$(readlink /proc/self/ns/user) uid=$(id -u)",
          `umount ${secret}; mount -o remount,rw,bind /; cat ${secret}`,
          "echo confined > made.txt",
          "echo finished",
        ].join("; ");
        const confined = new BubblewrapSandbox("/usr/bin/bwrap").confine({ command, shell: true, cwd: work }, policy);
        const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve) => {
          execFile(
            setprivPath as string,
            ["--reuid=65534", "--regid=65534", "--clear-groups", "--", confined.command, ...(confined.args ?? [])],
            { env: confined.env as NodeJS.ProcessEnv, encoding: "utf8", timeout: 30_000 },
            (_error, out, err) => resolve({ stdout: out, stderr: err }),
          );
        });
        const output = `${stdout}\n${stderr}`;
        expect(output).toContain("finished");
        expect(output).toMatch(new RegExp(`^CapEff:\\s+${NO_CAPABILITIES}$`, "m"));
        expect(output).toMatch(new RegExp(`^CapPrm:\\s+${NO_CAPABILITIES}$`, "m"));
        expect(output).toMatch(/uid=65534$/m);
        expect(/^userns=(\S+)/m.exec(output)?.[1]).not.toBe(HOST_USER_NAMESPACE);
        expect(output).not.toContain("UID-SECRET");
        expect(fs.statSync(path.join(work, "made.txt")).uid).toBe(65534);
      } finally {
        fs.rmSync(base, { recursive: true, force: true });
      }
    },
  );
});
