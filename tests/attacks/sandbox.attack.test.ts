/**
 * Attacks on the bubblewrap command sandbox, made the way a model makes
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
import { afterAll, describe, expect, it } from "vitest";
import { type ToolResult, toolResultText } from "../../packages/core/src/index.js";
import { BubblewrapSandbox, resolveSandboxPolicy } from "../../packages/node/src/index.js";
import { type BuiltinToolRegistry, buildBuiltinToolRegistry } from "../../packages/sdk/src/index.js";

const hasBubblewrap = fs.existsSync("/usr/bin/bwrap");
const skipReason = !hasBubblewrap && !process.env.CI ? "bubblewrap (/usr/bin/bwrap) is not installed on this machine" : undefined;
if (skipReason) console.warn(`sandbox attacks skipped: ${skipReason}`);
const isRoot = process.getuid?.() === 0;
/** A folder under /run this user may create in: /run itself as root, else the world-writable /run/lock. */
const runParent = ["/run", "/run/lock"].find((candidate) => {
  try {
    fs.accessSync(candidate, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
});
if (runParent === undefined) console.warn("sandbox attacks: the /run socket cases are skipped: neither /run nor /run/lock is writable for this user");

// Outside /tmp (the sandbox's /tmp is private): the host and the sandbox both see it through the read-only root.
const hostVisible = fs.realpathSync(fs.mkdtempSync(path.join(os.homedir(), ".agent-tools-sandbox-attack-")));
// Under /tmp: workspaces and roots reach the sandbox only as explicit binds.
const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sandbox-attack-")));
const openRegistries = new Set<BuiltinToolRegistry>();
afterAll(async () => {
  await Promise.allSettled([...openRegistries].map((registry) => registry.close()));
  fs.rmSync(hostVisible, { recursive: true, force: true });
  fs.rmSync(temporary, { recursive: true, force: true });
});

function workspace(): { workdir: string; dataDir: string; base: string } {
  const base = fs.mkdtempSync(path.join(temporary, "case-"));
  fs.mkdirSync(path.join(base, "project"));
  fs.mkdirSync(path.join(base, "data"));
  return { base, workdir: path.join(base, "project"), dataDir: path.join(base, "data") };
}

async function sandboxed(options: Omit<Parameters<typeof buildBuiltinToolRegistry>[0], "workdir" | "dataDir"> & { workdir?: string } = {}) {
  const { workdir, dataDir, base } = workspace();
  const registry = await buildBuiltinToolRegistry({ workdir, dataDir, sandbox: { enabled: true }, ...options });
  openRegistries.add(registry);
  return { registry, workdir: options.workdir ?? workdir, base };
}

async function bash(registry: BuiltinToolRegistry, command: string): Promise<{ result: ToolResult; output: string }> {
  const result = await registry.executeToolCall({ id: `attack-${Math.random()}`, name: "Bash", arguments: { command, yield_time_ms: 30_000 } });
  const output = toolResultText(result, "");
  expect(output).toContain("sandbox: bubblewrap");
  return { result, output };
}

const HOST_USER_NAMESPACE = fs.readlinkSync("/proc/self/ns/user");
const NO_CAPABILITIES = "0000000000000000";

describe.skipIf(skipReason !== undefined)("sandbox attacks: capabilities, mounts and hidden paths", () => {
  it("a confined command has no capability at all and its own user namespace (also when the host runs as root)", async () => {
    const { registry } = await sandboxed();
    const { output } = await bash(registry, "grep -E '^Cap(Eff|Prm|Bnd|Amb):' /proc/self/status; echo userns=$(readlink /proc/self/ns/user)");
    for (const set of ["CapEff", "CapPrm", "CapBnd", "CapAmb"]) expect(output).toMatch(new RegExp(`^${set}:\\s+${NO_CAPABILITIES}$`, "m"));
    const namespace = /^userns=(\S+)$/m.exec(output)?.[1];
    expect(namespace).toMatch(/^user:\[\d+\]$/);
    expect(namespace).not.toBe(HOST_USER_NAMESPACE);
  });

  it("the kernel's global settings are read-only inside: /proc/sys and /proc/sysrq-trigger refuse a write (a root host's uid 0 passed their owner check)", async () => {
    // Each setting is written back with its current value, so a sandbox that lets the write through changes nothing on the host.
    // As root, a writable kernel/core_pattern or kernel/modprobe runs a program of the command's choosing on the host, unconfined.
    const settings = ["kernel/core_pattern", "kernel/modprobe", "vm/min_free_kbytes", "vm/swappiness", "kernel/pid_max"].filter((name) =>
      fs.existsSync(`/proc/sys/${name}`),
    );
    expect(settings.length).toBeGreaterThan(0);
    const { registry } = await sandboxed();
    const { output } = await bash(
      registry,
      [
        ...settings.map(
          (name) => `v=$(cat /proc/sys/${name}) && printf '%s\\n' "$v" > /proc/sys/${name} && echo "${name}: written" || echo "${name}: refused"`,
        ),
        `if [ -e /proc/sysrq-trigger ]; then { : > /proc/sysrq-trigger; } 2>/dev/null && echo "sysrq: written" || echo "sysrq: refused"; fi`,
        "true",
      ].join("; "),
    );
    for (const name of settings) expect(output).toContain(`${name}: refused`);
    expect(output).not.toContain(": written");
  });

  it("a read-only root inside a sandbox writable root cannot be renamed away to become writable", async () => {
    const { workdir, dataDir, base } = workspace();
    const outer = path.join(base, "outer");
    const vendor = path.join(outer, "lib", "vendor");
    fs.mkdirSync(vendor, { recursive: true });
    fs.writeFileSync(path.join(vendor, "pinned.txt"), "PINNED\n");
    const registry = await buildBuiltinToolRegistry({
      workdir,
      dataDir,
      sandbox: { enabled: true, writableRoots: [outer] },
      additionalRoots: [{ alias: "vendor", path: vendor, access: "read" }],
    });
    openRegistries.add(registry);
    await bash(registry, `cd ${outer} && mv lib lib2; true`);
    await bash(registry, `cd ${outer} && echo tampered > lib2/vendor/pinned.txt; echo tampered > lib/vendor/pinned.txt; mv lib2 lib; true`);
    expect(fs.readFileSync(path.join(vendor, "pinned.txt"), "utf8")).toBe("PINNED\n");
    // Control: a plain folder beside it can be renamed and written.
    await bash(registry, `cd ${outer} && mkdir -p other && mv other other2 && echo ok > other2/x`);
    expect(fs.readFileSync(path.join(outer, "other2", "x"), "utf8")).toBe("ok\n");
  });

  it("a dataDir inside the workspace cannot be renamed away either: the next command still sees it masked", async () => {
    const { workdir } = workspace();
    const dataDir = path.join(workdir, ".agent", "data");
    fs.mkdirSync(dataDir, { recursive: true });
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, sandbox: { enabled: true } });
    openRegistries.add(registry);
    fs.writeFileSync(path.join(dataDir, "host-state.txt"), "HOST-DATA\n");
    await bash(registry, "mv .agent moved; mv .agent/data .agent/data2; true");
    const { output } = await bash(
      registry,
      "cat moved/data/host-state.txt .agent/data2/host-state.txt .agent/data/host-state.txt; echo changed > .agent/data/host-state.txt; true",
    );
    expect(output).not.toContain("HOST-DATA");
    expect(fs.readFileSync(path.join(dataDir, "host-state.txt"), "utf8")).toBe("HOST-DATA\n");
  });

  it("a hidden path inside the workspace cannot be renamed away: its folders stay put, and the next command still finds it hidden", async () => {
    // The home (or a folder holding secrets) inside a writable root: the workspace is its parent.
    const { workdir, dataDir } = workspace();
    const home = path.join(workdir, "home");
    const deep = path.join(workdir, "a", "b");
    for (const folder of [path.join(home, ".ssh"), path.join(deep, ".aws"), path.join(workdir, "plain")]) fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(home, ".ssh", "id_rsa"), "PRIVATE-KEY-SSH\n");
    fs.writeFileSync(path.join(home, ".netrc"), "PRIVATE-NETRC\n");
    fs.writeFileSync(path.join(deep, ".aws", "credentials"), "PRIVATE-AWS\n");
    const hidden = [path.join(home, ".ssh"), path.join(home, ".netrc"), path.join(deep, ".aws")];
    const confined = await buildBuiltinToolRegistry({ workdir, dataDir, sandbox: { enabled: true, hiddenPaths: hidden } });
    openRegistries.add(confined);
    // The renames a command would make so that the next one's hidden paths (computed by path) miss the secrets.
    await bash(confined, "mv home moved; mv a a2; mv a/b a/b2; mv home/.ssh home/ssh2; mv home/.netrc home/netrc2; mv plain plain2; true");
    const { output } = await bash(
      confined,
      "cat home/.ssh/id_rsa home/.netrc moved/.ssh/id_rsa moved/.netrc home/ssh2/id_rsa home/netrc2 a/b/.aws/credentials a2/b/.aws/credentials a/b2/.aws/credentials; true",
    );
    expect(output).not.toMatch(/PRIVATE-/);
    // On the host everything is where it was; the control folder beside them was renamed.
    expect(fs.readFileSync(path.join(home, ".ssh", "id_rsa"), "utf8")).toBe("PRIVATE-KEY-SSH\n");
    expect(fs.readFileSync(path.join(home, ".netrc"), "utf8")).toBe("PRIVATE-NETRC\n");
    expect(fs.readFileSync(path.join(deep, ".aws", "credentials"), "utf8")).toBe("PRIVATE-AWS\n");
    expect(fs.existsSync(path.join(workdir, "plain2"))).toBe(true);
  });

  it("umount of a hidden directory or file fails, and the hidden content stays unreadable", async () => {
    const home = fs.mkdtempSync(path.join(hostVisible, "home-"));
    fs.mkdirSync(path.join(home, ".ssh"));
    fs.writeFileSync(path.join(home, ".ssh", "id_rsa"), "PRIVATE-KEY-SSH\n");
    fs.writeFileSync(path.join(home, ".netrc"), "PRIVATE-NETRC\n");
    fs.writeFileSync(path.join(home, "notes.txt"), "visible notes\n");
    const hidden = [path.join(home, ".ssh"), path.join(home, ".netrc")];
    const { registry } = await sandboxed({ sandbox: { enabled: true, hiddenPaths: hidden } });
    const { output } = await bash(
      registry,
      [
        `cat ${home}/notes.txt`,
        `umount ${home}/.ssh; umount -l ${home}/.ssh; umount ${home}/.netrc; umount -l ${home}/.netrc`,
        `cat ${home}/.ssh/id_rsa ${home}/.netrc`,
        // A user namespace of its own inside the sandbox gives capabilities there, but not over the sandbox's mounts.
        `unshare -Urm sh -c 'umount -l ${home}/.ssh; umount -l ${home}/.netrc; cat ${home}/.ssh/id_rsa ${home}/.netrc'`,
        "true",
      ].join("; "),
    );
    expect(output).toContain("visible notes");
    expect(output).not.toContain("PRIVATE-KEY-SSH");
    expect(output).not.toContain("PRIVATE-NETRC");
  });

  it("remounting the root read-write (also after umount -l /tmp) and bind-mounting outside into the workspace fail: nothing is written on the host", async () => {
    const outside = fs.mkdtempSync(path.join(hostVisible, "outside-"));
    const { registry, workdir } = await sandboxed();
    const attacks = [
      `mount -o remount,rw,bind /; echo escaped > ${outside}/remount.txt`,
      `umount -l /tmp; mount -o remount,rw,bind /; echo escaped > ${outside}/after-umount.txt`,
      `mount -o remount,rw /; echo escaped > ${outside}/remount-plain.txt`,
      `mkdir -p door && mount --bind ${outside} door; echo escaped > door/through-bind.txt`,
      `mount -t tmpfs none ${outside}; echo escaped > ${outside}/over-tmpfs.txt; umount -l /; echo escaped > ${outside}/after-root-umount.txt`,
    ];
    for (const attack of attacks) {
      const { output } = await bash(registry, `${attack}; echo done`);
      expect(output).toContain("done");
    }
    expect(fs.readdirSync(outside)).toEqual([]);
    // Control: the workspace is writable, so the writes above failed because of the sandbox.
    const { result } = await bash(registry, "echo inside > control.txt");
    expect(result.isError).toBe(false);
    expect(fs.readFileSync(path.join(workdir, "control.txt"), "utf8")).toBe("inside\n");
  });
});

/** Starts a Unix-socket server on `address` that greets every client; returns its close. */
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
