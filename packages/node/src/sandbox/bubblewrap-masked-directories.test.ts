import type { SandboxPolicy } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { type BubblewrapArgumentOptions, buildBubblewrapArguments } from "./bubblewrap-arguments.js";

/** A host where every path is a directory and no socket is bound. */
const host: BubblewrapArgumentOptions = { kindOf: () => "directory", canonicalOf: (absolutePath) => absolutePath, hostSockets: [] };

/** The mount operations of the arguments, from the first root bind to `--chdir`, as [flag, path] pairs. */
function mounts(args: string[]): string[][] {
  const pairs: string[][] = [];
  for (let index = args.indexOf("--ro-bind"); index < args.length && args[index] !== "--chdir"; index += 1) {
    const flag = args[index] as string;
    if (flag === "--bind" || flag === "--ro-bind") {
      pairs.push([flag, args[index + 2] as string]);
      index += 2;
    } else if (flag === "--tmpfs" || flag === "--remount-ro" || flag === "--dev" || flag === "--proc") {
      pairs.push([flag, args[index + 1] as string]);
      index += 1;
    }
  }
  return pairs;
}

describe("buildBubblewrapArguments: maskedDirectories", () => {
  const policy: SandboxPolicy = {
    writableRoots: ["/work/app", "/home/u/.agent-tools/skills/ok"],
    readOnlyRoots: ["/home/u/.agent-tools/skills/prot"],
    maskedDirectories: ["/home/u/.agent-tools", "/home/u/.agent-tools/skills"],
    hiddenPaths: [],
    allowNetwork: true,
  };

  it("masks parents before the roots below them are bound, and remounts the masks read-only once those are in place", () => {
    const order = mounts(buildBubblewrapArguments({ command: "ls", shell: true, cwd: "/work/app" }, policy, host));
    expect(order).toEqual([
      ["--ro-bind", "/"],
      ["--dev", "/dev"],
      ["--proc", "/proc"],
      ["--tmpfs", "/tmp"],
      ["--bind", "/work/app"],
      ["--tmpfs", "/home/u/.agent-tools"],
      ["--tmpfs", "/home/u/.agent-tools/skills"],
      ["--bind", "/home/u/.agent-tools/skills/ok"],
      ["--ro-bind", "/home/u/.agent-tools/skills/prot"],
      ["--remount-ro", "/home/u/.agent-tools"],
      ["--remount-ro", "/home/u/.agent-tools/skills"],
    ]);
  });

  it("binds a root equal to a masked directory back on top (a workspace that is the dataDir stays visible)", () => {
    const order = mounts(
      buildBubblewrapArguments(
        { command: "ls", shell: true, cwd: "/data" },
        { writableRoots: ["/data"], maskedDirectories: ["/data"], hiddenPaths: [], allowNetwork: true },
        host,
      ),
    );
    expect(order.slice(4)).toEqual([
      ["--tmpfs", "/data"],
      ["--bind", "/data"],
      ["--remount-ro", "/data"],
    ]);
  });

  it("never binds back a cwd inside a masked directory, also under the private /tmp", () => {
    const args = buildBubblewrapArguments(
      { command: "ls", shell: true, cwd: "/tmp/data/skills/hidden" },
      { writableRoots: ["/work/app"], maskedDirectories: ["/tmp/data"], hiddenPaths: [], allowNetwork: true },
      host,
    );
    expect(mounts(args)).not.toContainEqual(["--ro-bind", "/tmp/data/skills/hidden"]);
    expect(mounts(args)).toContainEqual(["--tmpfs", "/tmp/data"]);
  });

  it("skips a masked directory that does not exist", () => {
    const missing: BubblewrapArgumentOptions = { ...host, kindOf: (absolutePath) => (absolutePath === "/gone" ? "missing" : "directory") };
    const args = buildBubblewrapArguments(
      { command: "ls", shell: true, cwd: "/work/app" },
      { writableRoots: [], maskedDirectories: ["/gone"], hiddenPaths: [], allowNetwork: true },
      missing,
    );
    expect(args).not.toContain("/gone");
  });
});
