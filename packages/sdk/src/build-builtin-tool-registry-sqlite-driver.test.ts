import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
const repositoryRoot = path.resolve(here, "../../..");
const node24 = path.join(repositoryRoot, "compat/node24/node_modules/node/bin/node");
const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-sqlite-driver-"));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

/** One TaskCreate in a host process on Node 24, the registry on `driver` ("auto": the registry alone). */
async function taskCreateOnNode24(driver: string): Promise<{ node: string; isError: boolean; text: string }> {
  const workdir = fs.mkdtempSync(path.join(temporary, "project-"));
  const { stdout } = await promisify(execFile)(
    node24,
    [
      "--import",
      "tsx",
      "--conditions=@agent-tools/source",
      path.join(here, "__fixtures__", "sqlite-driver-host-process.mjs"),
      workdir,
      path.join(workdir, "data"),
      driver,
    ],
    { cwd: repositoryRoot, timeout: 90_000 },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1)!);
}

// This checkout's better-sqlite3 is built for the machine's Node 20, so on Node 24 only node:sqlite can open the file:
// which driver the registry used shows in whether TaskCreate works.
describe("buildBuiltinToolRegistry on Node 24: the SQLite driver", () => {
  it("uses the built-in node:sqlite by default (no better-sqlite3 build for this Node needed)", async () => {
    const result = await taskCreateOnNode24("auto");
    expect(result.node).toMatch(/^v24\./);
    expect(result).toMatchObject({ isError: false });
    expect(result.text).toContain("Created task 1.");
  }, 120_000);

  it("uses the driver the host leased the file with on the registry's hub (here better-sqlite3, which cannot load)", async () => {
    const result = await taskCreateOnNode24("better-sqlite3");
    expect(result.isError).toBe(true);
    expect(result.text).toContain("better-sqlite3");
    expect(result.text).toContain("npm rebuild better-sqlite3");
  }, 120_000);

  it("takes node:sqlite when the host leases it explicitly", async () => {
    const result = await taskCreateOnNode24("node:sqlite");
    expect(result).toMatchObject({ isError: false });
  }, 120_000);
});
