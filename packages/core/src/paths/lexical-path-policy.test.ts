import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SdkError, ToolError } from "../errors.js";
import { createToolRegistry } from "../registry/create-tool-registry.js";
import { createMemoryWorkspace } from "../workspace/memory-workspace.js";
import { createLexicalPathPolicy } from "./lexical-path-policy.js";

// Paths of a workspace that is not this machine's disk: none of them exists here.
const WORKDIR = "/srv/remote-workspace-that-is-not-local/app";

function refusal(run: () => unknown): ToolError {
  try {
    run();
  } catch (error) {
    if (error instanceof ToolError) return error;
    throw error;
  }
  throw new Error("expected a ToolError");
}

describe("createLexicalPathPolicy", () => {
  const cleanups: string[] = [];
  afterEach(() => {
    for (const dir of cleanups.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("resolves workspace, absolute and root:// paths of a workdir that does not exist locally, without existence claims", () => {
    const paths = createLexicalPathPolicy({
      workdir: WORKDIR,
      workspaceLabel: "ssh://dev@10.0.0.5:22",
      additionalRoots: [{ alias: "docs", path: "/srv/docs-not-local", access: "read" }],
    });
    expect(paths.workdir).toBe(WORKDIR);
    const relative = paths.resolve("src/a.ts", { intent: "read" });
    expect(relative).toMatchObject({ absolutePath: `${WORKDIR}/src/a.ts`, exists: false, isSymlink: false, scope: "workspace", displayPath: "src/a.ts" });
    expect(paths.resolve(`${WORKDIR}/b.txt`, { intent: "write" }).displayPath).toBe("b.txt");
    expect(paths.resolve("root://docs/guide.md", { intent: "read" })).toMatchObject({
      absolutePath: "/srv/docs-not-local/guide.md",
      scope: "root",
      alias: "docs",
    });
    expect(paths.display("/srv/docs-not-local/guide.md")).toBe("root://docs/guide.md");
    expect(paths.display("/elsewhere/x")).toBe("/elsewhere/x");
    expect(paths.staysInside(WORKDIR, `${WORKDIR}/a`)).toBe(false);
    expect(paths.roots()).toEqual([expect.objectContaining({ alias: "docs", canonicalPath: "/srv/docs-not-local", status: "active" })]);
  });

  it("keeps the access rules: read-only roots, .git, root:// as cwd, outside paths", () => {
    const paths = createLexicalPathPolicy({
      workdir: WORKDIR,
      workspaceLabel: "memory",
      additionalRoots: [{ alias: "docs", path: "/srv/docs-not-local", access: "read" }],
    });
    expect(refusal(() => paths.resolve("root://docs/a.md", { intent: "write" })).code).toBe("permission_denied");
    expect(refusal(() => paths.resolve(".git/config", { intent: "edit" })).code).toBe("permission_denied");
    expect(refusal(() => paths.resolve("root://docs", { intent: "cwd" })).code).toBe("permission_denied");
    expect(refusal(() => paths.resolve("/etc/passwd", { intent: "read" })).code).toBe("out_of_bounds");
    expect(refusal(() => paths.resolve("a/../../b", { intent: "read" })).code).toBe("invalid_path");
    expect(paths.resolve("/tmp", { intent: "cwd", allowExternal: true })).toMatchObject({ scope: "external", absolutePath: "/tmp" });
  });

  it("refuses skill://, ~ and the host's uploads folder, saying they live on the host", () => {
    const paths = createLexicalPathPolicy({ workdir: WORKDIR, workspaceLabel: "ssh://dev@h:22", uploadsDir: "/home/me/.agent-tools/uploads" });
    const skill = refusal(() => paths.resolve("skill://pdf/SKILL.md", { intent: "read" }));
    expect(skill.code).toBe("unsupported_target");
    expect(skill.message).toMatch(/skills live on the host/);
    expect(refusal(() => paths.resolve("~/notes.txt", { intent: "read" })).message).toMatch(/home directory of the host/);
    const uploads = refusal(() => paths.resolve("/home/me/.agent-tools/uploads/a.png", { intent: "read", allowExternal: true }));
    expect(uploads.message).toMatch(/uploads folder, which lives on the host/);
  });

  it("never follows a local symlink: a local link at the same path is not resolved", () => {
    const local = mkdtempSync(path.join(os.tmpdir(), "lexical-"));
    cleanups.push(local);
    symlinkSync("/etc", path.join(local, "escape"));
    const paths = createLexicalPathPolicy({ workdir: local, workspaceLabel: "memory" });
    // The local policy would refuse this (the link leads out); the lexical one leaves it to the workspace.
    expect(paths.resolve("escape/passwd", { intent: "read" })).toMatchObject({ absolutePath: path.join(local, "escape/passwd"), exists: false });
  });

  it("fails closed on a relative workdir and on a malformed grant", () => {
    expect(() => createLexicalPathPolicy({ workdir: "relative/dir", workspaceLabel: "x" })).toThrow(SdkError);
    expect(() =>
      createLexicalPathPolicy({ workdir: WORKDIR, workspaceLabel: "x", additionalRoots: [{ alias: "Bad", path: "/srv/x", access: "read" }] }),
    ).toThrow(/alias must match/);
    expect(() =>
      createLexicalPathPolicy({ workdir: WORKDIR, workspaceLabel: "x", additionalRoots: [{ alias: "inner", path: `${WORKDIR}/sub`, access: "read" }] }),
    ).toThrow(/inside the workspace/);
  });
});

describe("createToolRegistry({ ports: { workspace } })", () => {
  it("uses the lexical policy on a non-local workspace (the workdir need not exist on this disk) and hands the workspace to the tools", async () => {
    const workspace = createMemoryWorkspace({ root: "/srv/not-on-this-host" });
    const registry = createToolRegistry({ workdir: "/srv/not-on-this-host", bundles: [], ports: { workspace } });
    expect(registry.workdir).toBe("/srv/not-on-this-host");
    expect(registry.ports.workspace).toBe(workspace);
    expect(registry.paths.resolve("a.txt", { intent: "write" })).toMatchObject({ absolutePath: "/srv/not-on-this-host/a.txt", exists: false });
    expect(() => createToolRegistry({ workdir: "/srv/elsewhere", bundles: [], ports: { workspace } })).toThrow(
      /outside the workspace root \/srv\/not-on-this-host/,
    );
    await registry.close();
    await workspace.close();
  });
});
