import { describe, expect, it } from "vitest";
import { nameHash } from "./name-hash.js";
import { isToolSidecarName, lockName, temporaryName, temporaryWriterPid } from "./sidecar-names.js";

// Sidecar names are shared across processes and versions (a lock taken by one
// release must be seen by another), so their spelling is pinned here.
describe("sidecar names", () => {
  it("hashes names with FNV-1a 64, as tools-fs hashes content", () => {
    expect(nameHash(Buffer.from(""))).toBe("cbf29ce484222325");
    expect(nameHash(Buffer.from("a"))).toBe("af63dc4c8601ec8c");
    expect(nameHash(Buffer.from("foobar"))).toBe("85944171f73967e8");
    expect(nameHash(Buffer.from("é".repeat(200)))).toBe("bd62f1ecfb466f85");
    expect(nameHash(Buffer.from("x".repeat(300)))).toBe("e78ddf9f1ba85555");
  });

  it("names a lock beside its file and shortens a long name with a hash of the whole", () => {
    expect(lockName("notes.md")).toBe(".notes.md.agent-tools.lock");
    const long = lockName("x".repeat(300));
    expect(long).toBe(`.${"x".repeat(204)}~e78ddf9f.agent-tools.lock`);
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(255);
    expect(isToolSidecarName(long)).toBe(true);
  });

  it("names temporaries by writer pid, recognised only for their own file", () => {
    const temporary = temporaryName("notes.md");
    expect(temporary).toMatch(new RegExp(`^\\.notes\\.md\\.${process.pid}\\.[0-9a-f]{8}\\.tmp$`));
    expect(isToolSidecarName(temporary)).toBe(true);
    expect(temporaryWriterPid("notes.md", temporary)).toBe(process.pid);
    expect(temporaryWriterPid("other.md", temporary)).toBeUndefined();
    const longTemporary = temporaryName("é".repeat(200));
    expect(Buffer.byteLength(longTemporary)).toBeLessThanOrEqual(255);
    expect(longTemporary).toContain("~bd62f1ec.");
    expect(temporaryWriterPid("é".repeat(200), longTemporary)).toBe(process.pid);
    expect(isToolSidecarName("notes.md")).toBe(false);
    expect(isToolSidecarName(".notes.md.tmp")).toBe(false);
  });
});
