import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SandboxPolicy } from "@agent-tools/core";
import { afterAll, describe, expect, it } from "vitest";
import { BUBBLEWRAP_ISOLATION_FLAGS, type BubblewrapArgumentOptions, buildBubblewrapArguments } from "./bubblewrap-arguments.js";
import { BubblewrapSandbox } from "./bubblewrap-sandbox.js";
import { withDescriptorCloser } from "./descriptor-closer.js";
import { DEFAULT_HIDDEN_HOME_DIRECTORIES, DEFAULT_HIDDEN_HOME_FILES, defaultHiddenPaths, resolveSandboxPolicy } from "./sandbox-policy.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-bwrap-args-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

/** A host where every path is a directory, `/var/run` links to `/run`, and the given sockets are bound. */
function host(options: { sockets?: string[]; canonical?: (absolutePath: string) => string; searchPath?: string } = {}): BubblewrapArgumentOptions {
  return {
    kindOf: kinds(),
    canonicalOf: options.canonical ?? ((absolutePath) => (absolutePath === "/var/run" ? "/run" : absolutePath)),
    hostSockets: options.sockets ?? [],
    searchPath: options.searchPath,
  };
}

/** Every path exists as a directory except those listed as files or missing. */
function kinds(files: string[] = [], missing: string[] = []) {
  return (absolutePath: string) =>
    (missing.includes(absolutePath) ? "missing" : files.includes(absolutePath) ? "file" : "directory") as "directory" | "file" | "missing";
}

const offline: SandboxPolicy = { writableRoots: ["/work/app"], hiddenPaths: [], allowNetwork: false };

describe("buildBubblewrapArguments", () => {
  it("isolates (own user namespace, no capability), mounts the root read-only with a private /tmp and /run, binds the writable roots, cuts the network and runs the shell command in cwd", () => {
    const args = buildBubblewrapArguments({ command: "npm test && echo ok", shell: true, cwd: "/work/app" }, offline, host());
    expect(args).toEqual([
      "--unshare-user",
      "--cap-drop",
      "ALL",
      "--unshare-pid",
      "--unshare-ipc",
      "--unshare-uts",
      "--unshare-cgroup-try",
      "--new-session",
      "--die-with-parent",
      "--unshare-net",
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--ro-bind-try",
      "/proc/sys",
      "/proc/sys",
      "--ro-bind-try",
      "/proc/sysrq-trigger",
      "/proc/sysrq-trigger",
      "--tmpfs",
      "/tmp",
      "--tmpfs",
      "/run",
      "--bind",
      "/work/app",
      "/work/app",
      "--chdir",
      "/work/app",
      "--",
      ...withDescriptorCloser(["/bin/bash", "-c", "npm test && echo ok"], {}),
    ]);
  });

  it("drops capabilities and makes a user namespace also with the network allowed, where /run stays the host's", () => {
    const args = buildBubblewrapArguments({ command: "true", cwd: "/work/app" }, { ...offline, allowNetwork: true }, host({ sockets: ["/srv/db.sock"] }));
    expect(args.slice(0, 9)).toEqual([...BUBBLEWRAP_ISOLATION_FLAGS]);
    expect(args).not.toContain("--unshare-net");
    expect(args).not.toContain("/run");
    expect(args).not.toContain("/srv/db.sock");
  });

  it("masks the host's Unix sockets that stay visible read-only, not those in a writable root, under a private directory or hidden", () => {
    const policy: SandboxPolicy = {
      writableRoots: ["/work/app"],
      readOnlyRoots: ["/work/app/vendor", "/tmp/reference"],
      hiddenPaths: ["/home/ada/.gnupg"],
      allowNetwork: false,
    };
    const sockets = [
      "/var/lib/mysql/mysql.sock",
      "/work/app/dev.sock",
      "/work/app/vendor/service.sock",
      "/tmp/.X11-unix/X0",
      "/tmp/reference/service.sock",
      "/run/docker.sock",
      "/home/ada/.gnupg/S.gpg-agent",
      "/home/ada/.cache/app.sock",
    ];
    const args = buildBubblewrapArguments({ command: "true", cwd: "/work/app" }, policy, host({ sockets }));
    const masked = args.flatMap((value, index) => (value === "/dev/null" && args[index - 1] === "--ro-bind" ? [args[index + 1]] : []));
    expect(masked).toEqual(["/var/lib/mysql/mysql.sock", "/work/app/vendor/service.sock", "/tmp/reference/service.sock", "/home/ada/.cache/app.sock"]);
    // After the roots (a socket in a read-only root is masked on top of its bind), before the hidden paths.
    expect(args.indexOf("/var/lib/mysql/mysql.sock")).toBeGreaterThan(args.lastIndexOf("/tmp/reference"));
    expect(args.indexOf("/var/lib/mysql/mysql.sock")).toBeLessThan(args.indexOf("/home/ada/.gnupg"));
  });

  it("binds a separate /var/run too, and the PATH directories under a private /run back read-only", () => {
    const args = buildBubblewrapArguments(
      { command: "true", cwd: "/run/user/0/project" },
      offline,
      host({ canonical: (absolutePath) => absolutePath, searchPath: "/run/current-system/sw/bin:/usr/bin:/run/wrappers/bin/:relative/bin:/run" }),
    );
    const joined = args.join(" ");
    expect(joined).toContain("--tmpfs /tmp --tmpfs /run --tmpfs /var/run");
    expect(joined).toContain("--ro-bind /run/current-system/sw/bin /run/current-system/sw/bin");
    expect(joined).toContain("--ro-bind /run/wrappers/bin /run/wrappers/bin");
    // The cwd under the private /run is an empty folder of its own, not the host's (sockets bound there later stay out of reach).
    expect(joined).toContain("--dir /run/user/0/project");
    expect(joined).not.toContain("--ro-bind /run/user/0/project");
    expect(joined).not.toContain("/usr/bin");
    expect(joined).not.toContain("relative/bin");
    expect(joined).not.toContain("--ro-bind /run /run");
  });

  it("keeps the network when allowed, uses a given shell, and passes a plain command with its arguments", () => {
    const online = { ...offline, allowNetwork: true };
    const shell = buildBubblewrapArguments({ command: "echo hi", shell: "/bin/sh", cwd: "/work/app" }, online, { kindOf: kinds() });
    expect(shell).not.toContain("--unshare-net");
    expect(shell.slice(shell.indexOf("--"))).toEqual(["--", ...withDescriptorCloser(["/bin/sh", "-c", "echo hi"], {})]);
    const plain = buildBubblewrapArguments({ command: "node", args: ["-e", "1 + 1"], cwd: "/work/app" }, online, { kindOf: kinds() });
    expect(plain.slice(plain.indexOf("--"))).toEqual(["--", ...withDescriptorCloser(["node", "-e", "1 + 1"], {})]);
  });

  it("orders mounts parents first, so a read-only root inside the workspace stays read-only, and hides paths last", () => {
    const policy: SandboxPolicy = {
      writableRoots: ["/work/app", "/tmp/ws"],
      readOnlyRoots: ["/work/app/vendor", "/srv/reference"],
      hiddenPaths: ["/home/ada/.ssh", "/home/ada/.netrc", "/home/ada/.aws"],
      allowNetwork: false,
    };
    const args = buildBubblewrapArguments({ command: "true", shell: true, cwd: "/work/app" }, policy, {
      ...host(),
      kindOf: kinds(["/home/ada/.netrc"], ["/home/ada/.aws"]),
    });
    const mounts = args.slice(args.indexOf("/run") + 1, args.indexOf("--chdir"));
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

  it("binds the folders between a writable root and a hidden path inside it onto themselves, with the roots, so they cannot be renamed", () => {
    const policy: SandboxPolicy = {
      writableRoots: ["/work"],
      readOnlyRoots: ["/work/home/ada/docs"],
      hiddenPaths: ["/work/home/ada/.ssh", "/work/home/ada/.netrc", "/work/.aws", "/srv/.pgpass"],
      allowNetwork: false,
    };
    const args = buildBubblewrapArguments({ command: "true", shell: true, cwd: "/work" }, policy, {
      ...host(),
      kindOf: kinds(["/work/home/ada/.netrc", "/srv/.pgpass"]),
    });
    const mounts = args.slice(args.indexOf("/run") + 1, args.indexOf("--chdir"));
    expect(mounts).toEqual([
      ...["--bind", "/work", "/work"],
      ...["--bind", "/work/home", "/work/home"],
      ...["--bind", "/work/home/ada", "/work/home/ada"],
      // A read-only root below an anchor is bound after it (and stays read-only).
      ...["--ro-bind", "/work/home/ada/docs", "/work/home/ada/docs"],
      ...["--tmpfs", "/work/home/ada/.ssh"],
      ...["--ro-bind", "/dev/null", "/work/home/ada/.netrc"],
      ...["--tmpfs", "/work/.aws"],
      // Outside every writable root nothing can be renamed: no anchor.
      ...["--ro-bind", "/dev/null", "/srv/.pgpass"],
    ]);
  });

  it("skips missing roots, and makes a cwd under the private /tmp an empty private folder so --chdir finds it (never the host's)", () => {
    const args = buildBubblewrapArguments(
      { command: "ls", shell: true, cwd: "/tmp/elsewhere" },
      { ...offline, writableRoots: ["/work/app", "/gone"] },
      { ...host(), kindOf: kinds([], ["/gone"]) },
    );
    expect(args).not.toContain("/gone");
    expect(args.join(" ")).toContain("--dir /tmp/elsewhere");
    expect(args.join(" ")).not.toContain("--ro-bind /tmp/elsewhere");
    const inside = buildBubblewrapArguments({ command: "ls", shell: true, cwd: "/tmp/ws/src" }, { ...offline, writableRoots: ["/tmp/ws"] }, host());
    expect(inside.join(" ")).not.toContain("--ro-bind /tmp/ws/src");
    expect(inside).not.toContain("--dir");
  });
});

describe("BubblewrapSandbox.confine", () => {
  it("keeps cwd, input, isolation and log file, drops the shell flag, and gives a clean environment", () => {
    const sandbox = new BubblewrapSandbox("/usr/bin/bwrap", {
      hostEnvironment: () => ({ PATH: "/usr/bin:/bin", HOME: "/home/ada", LC_ALL: "C", OPENAI_API_KEY: "sk-host", NPM_TOKEN: "npm-host", A: "host" }),
      hostSockets: () => ["/srv/db.sock"],
    });
    const signal = new AbortController().signal;
    const confined = sandbox.confine(
      { command: "make", shell: true, cwd: "/work/app", env: { A: "1" }, input: "x", signal, isolated: true, logFile: "/var/log/x.log" },
      offline,
    );
    expect(sandbox.mechanism).toBe("bubblewrap");
    expect(confined).toMatchObject({ command: "/usr/bin/bwrap", cwd: "/work/app", input: "x", signal, isolated: true, logFile: "/var/log/x.log" });
    expect(confined.env).toEqual({ PATH: "/usr/bin:/bin", HOME: "/home/ada", LC_ALL: "C", A: "1" });
    expect(confined.extendEnv).toBe(false);
    expect(confined.shell).toBeUndefined();
    expect(confined.args?.slice(-3)).toEqual(["/bin/bash", "-c", "make"]);
    expect(confined.args?.join(" ")).toContain("--ro-bind /dev/null /srv/db.sock");

    const allowed = sandbox.confine({ command: "env", cwd: "/work/app", extendEnv: false, env: { ONLY: "this" } }, { ...offline, environmentAllow: ["NPM_*"] });
    expect(allowed.env).toEqual({ ONLY: "this" });
    const extended = sandbox.confine({ command: "env", cwd: "/work/app" }, { ...offline, allowNetwork: true, environmentAllow: ["NPM_*"] });
    expect(extended.env).toEqual({ PATH: "/usr/bin:/bin", HOME: "/home/ada", LC_ALL: "C", NPM_TOKEN: "npm-host" });
    expect(extended.args?.join(" ")).not.toContain("/srv/db.sock");
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

  it("hides the home directory's credential files by default, and carries the host's environment allow-list", () => {
    const home = fs.mkdtempSync(path.join(temporary, "home-"));
    fs.mkdirSync(path.join(home, ".cargo"));
    fs.mkdirSync(path.join(home, ".config", "gh"), { recursive: true });
    for (const name of [".npmrc", ".git-credentials", ".netrc", ".pgpass", ".pypirc", ".cargo/credentials.toml"])
      fs.writeFileSync(path.join(home, name), "secret\n");
    expect(DEFAULT_HIDDEN_HOME_FILES).toEqual(expect.arrayContaining([".npmrc", ".git-credentials", ".netrc", ".pgpass", ".config/git/credentials"]));
    expect(defaultHiddenPaths(home).sort()).toEqual(
      [".cargo/credentials.toml", ".config/gh", ".git-credentials", ".netrc", ".npmrc", ".pgpass", ".pypirc"].map((name) => path.join(home, name)),
    );
    const policy = resolveSandboxPolicy({ settings: { enabled: true, environment: { allow: ["NPM_*"] } }, writableRoots: [], home });
    expect(policy.environmentAllow).toEqual(["NPM_*"]);
    expect(resolveSandboxPolicy({ settings: { enabled: true }, writableRoots: [], home }).environmentAllow).toBeUndefined();
  });
});
