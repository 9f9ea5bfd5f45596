import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SdkError, ToolError } from "../errors.js";
import { createPathPolicy } from "./path-policy.js";

const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "paths-uploads-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("createPathPolicy: uploadsDir", () => {
  it("refuses an uploadsDir that is not an absolute path", () => {
    mkdirSync(path.join(base, "w1"));
    for (const uploadsDir of ["uploads", "", 42 as unknown as string]) {
      expect(() => createPathPolicy({ workdir: path.join(base, "w1"), uploadsDir })).toThrow(SdkError);
    }
  });

  it("resolves uploads read-only with scope uploads, shows them absolute, and follows a symlinked uploads folder", () => {
    const workdir = path.join(base, "w2");
    const real = path.join(base, "real-uploads");
    mkdirSync(workdir);
    mkdirSync(real);
    writeFileSync(path.join(real, "a.txt"), "a");
    const declared = path.join(base, "data", "uploads");
    mkdirSync(path.dirname(declared));
    symlinkSync(real, declared);
    const policy = createPathPolicy({ workdir, uploadsDir: declared });
    for (const input of [path.join(declared, "a.txt"), path.join(real, "a.txt")]) {
      const resolved = policy.resolve(input, { intent: "read" });
      expect(resolved).toMatchObject({ scope: "uploads", access: "read", exists: true, relativePath: "a.txt", displayPath: path.join(real, "a.txt") });
    }
    expect(policy.display(path.join(real, "a.txt"))).toBe(path.join(real, "a.txt"));
    for (const intent of ["write", "edit", "delete", "cwd"] as const) {
      expect(() => policy.resolve(path.join(declared, "a.txt"), { intent })).toThrow(ToolError);
    }
    // Without the option, the same path is outside every root.
    expect(() => createPathPolicy({ workdir }).resolve(path.join(declared, "a.txt"), { intent: "read" })).toThrow(/outside the workspace/);
  });
});
