import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const repositoryRoot = path.resolve(here, "../../..");
const fixture = path.join(here, "__fixtures__", "task-create-race-process.mjs");
const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-race-"));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const TRIALS = 20;
// Each racer writes its own conversation, so the only thing they share is the database and its first migration.
const create = (id: string) => ({ id, name: "TaskCreate", arguments: { subject: id, description: "racing", activeForm: "Racing" } });

function freshDataDirs(name: string): string[] {
  return Array.from({ length: TRIALS }, (_, index) => path.join(temporary, name, `data-${index}`));
}

describe("buildBuiltinToolRegistry: two registries on one fresh dataDir", () => {
  it(`both create a task when they race on the first migration in one process (${TRIALS} trials)`, async () => {
    const workdir = path.join(temporary, "in-process");
    fs.mkdirSync(workdir, { recursive: true });
    for (const dataDir of freshDataDirs("in-process")) {
      const registries = await Promise.all(
        [0, 1].map((index) => buildBuiltinToolRegistry({ workdir, dataDir, runtimeScope: "chat", tasks: { run: { conversationId: `c${index}` } } })),
      );
      try {
        const results = await Promise.all(registries.map((registry, index) => registry.executeToolCall(create(`r${index}`))));
        expect(results.filter((result) => result.isError).map((result) => result.content)).toEqual([]);
      } finally {
        await Promise.all(registries.map((registry) => registry.close()));
      }
    }
  });

  it(`both create a task when two processes race on the first migration (${TRIALS} trials)`, async () => {
    const workdir = path.join(temporary, "processes");
    fs.mkdirSync(workdir, { recursive: true });
    const dataDirs = freshDataDirs("processes");
    // Both processes start slowly on a busy machine; trial i begins at startAt + i * 150 ms in both.
    const startAt = String(Date.now() + 4_000);
    const runOne = () =>
      promisify(execFile)(
        process.execPath,
        ["--import", "tsx", "--conditions=@agent-tools/source", fixture, workdir, JSON.stringify(dataDirs), startAt, "150"],
        {
          cwd: repositoryRoot,
          timeout: 90_000,
        },
      );
    const outputs = await Promise.all([runOne(), runOne()]);
    const reports = outputs.map(({ stdout }) => JSON.parse(stdout.trim().split("\n").at(-1)!) as { pid: number; errors: string[] });
    expect(new Set(reports.map((report) => report.pid)).size).toBe(2);
    expect(reports.flatMap((report) => report.errors)).toEqual([]);
  });
});
