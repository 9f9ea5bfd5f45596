import { mkdtemp, rm, symlink, truncate, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createMemoryWorkspace } from "@agent-tools/core/workspace";
import { afterEach, describe, expect, it } from "vitest";
import { readLocalBounded, readWorkspaceBounded } from "./read-bounded-file.js";

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function folder(): Promise<string> {
  const made = await mkdtemp(path.join(os.tmpdir(), "lsp-bounded-"));
  folders.push(made);
  return made;
}

describe("bounded reads of the files a server names", () => {
  it("reads a small file whole", async () => {
    const dir = await folder();
    await writeFile(path.join(dir, "a.ts"), "export const a = 1;\n");
    expect((await readLocalBounded(path.join(dir, "a.ts"), 1024)).toString()).toBe("export const a = 1;\n");
  });

  it("never reads more than limit + 1 bytes of a huge file", async () => {
    const dir = await folder();
    const huge = path.join(dir, "huge.ts");
    await writeFile(huge, "");
    await truncate(huge, 2 * 1024 * 1024 * 1024);
    expect((await readLocalBounded(huge, 1024)).length).toBe(1025);
  });

  it("refuses a symlink as the last component and a directory", async () => {
    const dir = await folder();
    const outside = await folder();
    await writeFile(path.join(outside, "secret.ts"), "export const SECRET = 1;\n");
    await symlink(path.join(outside, "secret.ts"), path.join(dir, "link.ts"));
    await expect(readLocalBounded(path.join(dir, "link.ts"), 1024)).rejects.toMatchObject({ code: "ELOOP" });
    await expect(readLocalBounded(dir, 1024)).rejects.toThrow(/not a regular file/);
  });

  it("reads at most limit + 1 bytes through a workspace's file system", async () => {
    const workspace = createMemoryWorkspace({ root: "/repo" });
    await workspace.fs.writeFileAtomic("/repo/big.ts", Buffer.alloc(5000, 97));
    expect((await readWorkspaceBounded(workspace.fs, "/repo/big.ts", 100)).length).toBe(101);
    await workspace.close();
  });
});
