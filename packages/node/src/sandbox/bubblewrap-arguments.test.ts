import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SandboxPolicy } from "@agent-tools/core";
import { afterAll, describe, expect, it } from "vitest";
import { buildBubblewrapArguments } from "./bubblewrap-arguments.js";
import { BubblewrapSandbox } from "./bubblewrap-sandbox.js";
import { probeBubblewrapSandbox } from "./probe-bubblewrap-sandbox.js";
import { DEFAULT_HIDDEN_HOME_DIRECTORIES, defaultHiddenPaths, resolveSandboxPolicy } from "./sandbox-policy.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-bwrap-args-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

/** Every path exists as a directory except those listed as files or missing. */
function kinds(files: string[] = [], missing: string[] = []) {
  return (absolutePath: string) =>
    (missing.includes(absolutePath) ? "missing" : files.includes(absolutePath) ? "file" : "directory") as "directory" | "file" | "missing";
}

const offline: SandboxPolicy = { writableRoots: ["/work/app"], hiddenPaths: [], allowNetwork: false };

describe("buildBubblewrapArguments", () => {
  it("mounts the root read-only with a private /tmp, binds the writable roots, cuts the network and runs the shell command in cwd", () => {
    const args = buildBubblewrapArguments({ command: "npm test && echo ok", shell: true, cwd: "/work/app" }, offline, { kindOf: kinds() });
    expect(args).toEqual([
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--tmpfs",
      "/tmp",
      "--bind",
      "/work/app",
      "/work/app",
      "--unshare-net",
      "--unshare-pid",
      "--die-with-parent",
      "--chdir",
      "/work/app",
      "--",
      "/bin/bash",
      "-c",
      "npm test && echo ok",
    ]);
  });

  it("keeps the network when allowed, uses a given shell, and passes a plain command with its arguments", () => {
    const online = { ...offline, allowNetwork: true };
    const shell = buildBubblewrapArguments({ command: "echo hi", shell: "/bin/sh", cwd: "/work/app" }, online, { kindOf: kinds() });
    expect(shell).not.toContain("--unshare-net");
    expect(shell.slice(shell.indexOf("--"))).toEqual(["--", "/bin/sh", "-c", "echo hi"]);
    const plain = buildBubblewrapArguments({ command: "node", args: ["-e", "1 + 1"], cwd: "/work/app" }, online, { kindOf: kinds() });
    expect(plain.slice(plain.indexOf("--"))).toEqual(["--", "node", "-e", "1 + 1"]);
  });

  it("orders mounts parents first, so a read-only root inside the workspace stays read-only, and hides paths last", () => {
    const policy: SandboxPolicy = {
      writableRoots: ["/work/app", "/tmp/ws"],
      readOnlyRoots: ["/work/app/vendor", "/srv/reference"],
      hiddenPaths: ["/home/ada/.ssh", "/home/ada/.netrc", "/home/ada/.aws"],
      allowNetwork: false,
    };
    const args = buildBubblewrapArguments({ command: "true", shell: true, cwd: "/work/app" }, policy, {
      kindOf: kinds(["/home/ada/.netrc"], ["/home/ada/.aws"]),
    });
    const mounts = args.slice(args.indexOf("/tmp") + 1, args.indexOf("--unshare-net"));
    expect(mounts).toEqual([
      "--ro-bind",
      "/srv/reference",
      "/srv/reference",
      "--bind",
      "/tmp/ws",
      "/tmp/ws",
      "--bind",
      "/work/app",
      "/work/app",
      "--ro-bind",
      "/work/app/vendor",
      "/work/app/vendor",
      "--tmpfs",
      "/home/ada/.ssh",
      "--ro-bind",
      "/dev/null",
      "/home/ada/.netrc",
    ]);
  });

  it("skips missing roots, and binds a cwd under the private /tmp read-only so --chdir finds it", () => {
    const args = buildBubblewrapArguments(
      { command: "ls", shell: true, cwd: "/tmp/elsewhere" },
      { ...offline, writableRoots: ["/work/app", "/gone"] },
      {
        kindOf: kinds([], ["/gone"]),
      },
    );
    expect(args).not.toContain("/gone");
    expect(args.join(" ")).toContain("--ro-bind /tmp/elsewhere /tmp/elsewhere");
    const inside = buildBubblewrapArguments(
      { command: "ls", shell: true, cwd: "/tmp/ws/src" },
      { ...offline, writableRoots: ["/tmp/ws"] },
      { kindOf: kinds() },
    );
    expect(inside.join(" ")).not.toContain("--ro-bind /tmp/ws/src");
  });
});

describe("BubblewrapSandbox.confine", () => {
  it("keeps cwd, env, input, isolation and log file, and drops the shell flag", () => {
    const sandbox = new BubblewrapSandbox("/usr/bin/bwrap");
    const signal = new AbortController().signal;
    const confined = sandbox.confine(
      { command: "make", shell: true, cwd: "/work/app", env: { A: "1" }, input: "x", signal, isolated: true, logFile: "/var/log/x.log" },
      offline,
    );
    expect(sandbox.mechanism).toBe("bubblewrap");
    expect(confined).toMatchObject({
      command: "/usr/bin/bwrap",
      cwd: "/work/app",
      env: { A: "1" },
      input: "x",
      signal,
      isolated: true,
      logFile: "/var/log/x.log",
    });
    expect(confined.shell).toBeUndefined();
    expect(confined.args?.slice(-3)).toEqual(["/bin/bash", "-c", "make"]);
  });
});

describe("resolveSandboxPolicy", () => {
  it("hides the home directory's existing secrets directories by default, canonical, and adds the settings' writable roots", () => {
    const home = fs.mkdtempSync(path.join(temporary, "home-"));
    fs.mkdirSync(path.join(home, ".ssh"));
    fs.mkdirSync(path.join(home, ".config", "gcloud"), { recursive: true });
    const cache = fs.mkdtempSync(path.join(temporary, "cache-"));
    const link = path.join(temporary, `link-${path.basename(cache)}`);
    fs.symlinkSync(cache, link);
    const workdir = fs.mkdtempSync(path.join(temporary, "ws-"));
    const reference = fs.mkdtempSync(path.join(temporary, "ref-"));
    expect(DEFAULT_HIDDEN_HOME_DIRECTORIES).toContain(".aws");
    expect(defaultHiddenPaths(home).sort()).toEqual([path.join(home, ".config", "gcloud"), path.join(home, ".ssh")]);
    const policy = resolveSandboxPolicy({
      settings: { enabled: true, writableRoots: [link, path.join(temporary, "missing")] },
      writableRoots: [workdir],
      readOnlyRoots: [reference, workdir],
      home,
    });
    expect(policy).toEqual({
      writableRoots: [workdir, cache],
      readOnlyRoots: [reference],
      hiddenPaths: expect.arrayContaining([path.join(home, ".ssh"), path.join(home, ".config", "gcloud")]),
      allowNetwork: false,
    });
  });

  it("uses the host's hidden paths instead of the defaults, and allows the network only when asked", () => {
    const home = fs.mkdtempSync(path.join(temporary, "home-"));
    fs.mkdirSync(path.join(home, ".ssh"));
    const secrets = fs.mkdtempSync(path.join(temporary, "secrets-"));
    const policy = resolveSandboxPolicy({ settings: { enabled: true, allowNetwork: true, hiddenPaths: [secrets] }, writableRoots: [], home });
    expect(policy.hiddenPaths).toEqual([secrets]);
    expect(policy.allowNetwork).toBe(true);
  });
});

describe("probeBubblewrapSandbox", () => {
  it("says what to do when bubblewrap is missing, and that macOS is not supported yet", async () => {
    const missing = await probeBubblewrapSandbox({ executable: path.join(temporary, "nope", "bwrap"), settings: { enabled: true } });
    expect(missing.sandbox).toBeUndefined();
    expect(missing.unavailable).toMatch(/bubblewrap was not found at .*nope\/bwrap/);
    expect(missing.unavailable).toMatch(/Install bubblewrap.*user namespaces.*sandbox: \{ enabled: false \}/);
    const mac = await probeBubblewrapSandbox({ platform: "darwin" });
    expect(mac.unavailable).toMatch(/not supported on macOS yet/);
  });

  it("reports a bubblewrap whose trial run fails, with what it said", async () => {
    const fake = path.join(temporary, "failing-bwrap");
    fs.writeFileSync(fake, "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n", { mode: 0o755 });
    const state = await probeBubblewrapSandbox({ executable: fake });
    expect(state.unavailable).toMatch(/trial run .* failed \(bwrap: No permissions to create new namespace\)/);
  });

  it.skipIf(!fs.existsSync("/usr/bin/bwrap") && !process.env.CI)("finds a working bubblewrap and keeps the settings", async () => {
    const settings = { enabled: true, allowNetwork: true };
    const state = await probeBubblewrapSandbox({ settings });
    expect(state.unavailable).toBeUndefined();
    expect(state.sandbox?.mechanism).toBe("bubblewrap");
    expect(state.settings).toBe(settings);
  });
});
