import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SandboxPolicy, SandboxState, SpawnOptions } from "@agent-tools/core";
import { afterAll, describe, expect, it } from "vitest";
import { createNodePorts } from "./create-node-ports.js";
import { type SandboxMountSource, dataDirSandboxMounts, withSandboxMounts } from "./sandbox-mounts.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sdk-sandbox-mounts-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

/** Ports whose sandbox records the policy of each confine. */
function recordingPorts(seen: SandboxPolicy[]) {
  const sandbox: SandboxState = {
    requested: true,
    settings: { enabled: true },
    sandbox: {
      mechanism: "recording",
      confine: (options: SpawnOptions, policy: SandboxPolicy) => {
        seen.push(policy);
        return options;
      },
    },
  };
  return Object.create(createNodePorts(), { sandbox: { value: sandbox, enumerable: true } }) as ReturnType<typeof createNodePorts>;
}

const base: SandboxPolicy = { writableRoots: ["/work"], readOnlyRoots: ["/docs"], hiddenPaths: [], allowNetwork: false };

describe("withSandboxMounts", () => {
  it("adds each source's mounts to every confined spawn, reading the sources (also those pushed later) at each spawn", () => {
    const seen: SandboxPolicy[] = [];
    const sources: SandboxMountSource[] = [() => ({ maskedDirectories: ["/data"] })];
    const ports = withSandboxMounts(recordingPorts(seen), sources);
    ports.sandbox?.sandbox?.confine({ command: "ls", cwd: "/work" }, base);
    sources.push(() => ({ maskedDirectories: ["/data/skills"], readOnlyRoots: ["/data/skills/prot", "/work"], writableRoots: ["/data/skills/ok"] }));
    ports.sandbox?.sandbox?.confine({ command: "ls", cwd: "/work" }, base);
    expect(seen[0]).toEqual({ ...base, maskedDirectories: ["/data"] });
    expect(seen[1]).toEqual({
      ...base,
      writableRoots: ["/work", "/data/skills/ok"],
      readOnlyRoots: ["/docs", "/data/skills/prot"],
      maskedDirectories: ["/data", "/data/skills"],
    });
    expect(ports.sandbox?.sandbox?.mechanism).toBe("recording");
  });

  it("leaves ports without a sandbox, or with an unavailable one, as they are", () => {
    const plain = createNodePorts();
    expect(withSandboxMounts(plain, [])).toBe(plain);
    const unavailable = Object.create(plain, { sandbox: { value: { requested: true, settings: { enabled: true }, unavailable: "no bwrap" } } });
    expect(withSandboxMounts(unavailable, [])).toBe(unavailable);
  });
});

describe("dataDirSandboxMounts", () => {
  it("masks the canonical dataDir once it exists, and never /", () => {
    const dataDir = path.join(temporary, "data");
    const source = dataDirSandboxMounts(dataDir);
    expect(source()).toEqual({});
    fs.mkdirSync(dataDir);
    const alias = path.join(temporary, "alias");
    fs.symlinkSync(dataDir, alias);
    expect(dataDirSandboxMounts(alias)()).toEqual({ maskedDirectories: [dataDir] });
    expect(source()).toEqual({ maskedDirectories: [dataDir] });
    expect(dataDirSandboxMounts("/")()).toEqual({});
    fs.mkdirSync(path.join(dataDir, "uploads"));
    expect(source()).toEqual({ maskedDirectories: [dataDir], readOnlyRoots: [path.join(dataDir, "uploads")] });
  });
});
