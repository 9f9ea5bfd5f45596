import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openSqliteStorage } from "@agent-tools/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMemoryMarkdown } from "../domain/memory-markdown.js";
import { KyselyMemoryIndexStore } from "../stores/kysely-memory-index-store.js";
import { bundleChild } from "./__fixtures__/bundle-child.js";
import { listMemoryFiles } from "./memory-files.js";
import { openMemoryService } from "./memory-service.js";

const packageDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const writerScript = path.join(packageDirectory, "src/runtime/__fixtures__/memory-writer-child.ts");
const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-memory-crash-")));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

let writer: { command: string; args: string[] };
beforeAll(async () => {
  const directory = path.join(root, "bundle");
  fs.mkdirSync(directory);
  writer = await bundleChild(writerScript, directory);
});

/** Kills in total, over lanes that run side by side (each its own memory root and database). */
const KILLS = 52;
const LANES = 2;

const hash8 = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 8);

interface Lane {
  readonly dataDir: string;
  readonly workdir: string;
  readonly filename: string;
}

function makeLane(index: number): Lane {
  const base = path.join(root, `lane-${index}`);
  fs.mkdirSync(path.join(base, "project"), { recursive: true });
  return { dataDir: path.join(base, "data"), workdir: path.join(base, "project"), filename: path.join(base, "index.sqlite") };
}

/** Starts the writer, lets it run a random moment after it is ready, and SIGKILLs it. */
async function killWriterOnce(lane: Lane, seed: number): Promise<void> {
  const child = spawn(writer.command, [...writer.args, lane.dataDir, lane.workdir, lane.filename, String(seed)], {
    cwd: packageDirectory,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve();
    });
    void exited.then((code) => reject(new Error(`the writer exited (${code}) before it was killed: ${stderr}`)));
  });
  await new Promise((resolve) => setTimeout(resolve, 5 + Math.floor(Math.random() * 60)));
  child.kill("SIGKILL");
  await exited;
  expect(stderr).toBe("");
}

/** Every entry file is whole: its frontmatter parses and its body passes its own checksum. */
async function checkFiles(lane: Lane): Promise<number> {
  const files = await listMemoryFiles({ root: fs.realpathSync(path.join(lane.dataDir, "memory")) });
  for (const file of files) {
    const text = fs.readFileSync(file.path, "utf8");
    expect(text.startsWith("---\ntype: ")).toBe(true);
    const document = parseMemoryMarkdown(text, { type: "reference", slug: file.slug, mtimeMs: 0 });
    if (file.directory === "daily") {
      for (const line of document.body.split("\n").filter((entry) => entry !== "")) {
        const match = /^- \d{2}:\d{2} item-(\d+)-([0-9a-f]{8})$/.exec(line);
        expect(match, `${file.path}: ${line}`).not.toBeNull();
        expect(match![2]).toBe(hash8(match![1]!));
      }
      continue;
    }
    const lines = document.body.split("\n");
    const sum = lines.pop()!;
    expect(sum, file.path).toBe(`sum:${hash8(lines.join("\n"))}`);
  }
  return files.length;
}

/** Reopens the index (which reconciles it) and checks that it holds exactly the files, by hash. */
async function checkIndex(lane: Lane): Promise<void> {
  const storage = await openSqliteStorage({ filename: lane.filename });
  try {
    const store = await KyselyMemoryIndexStore.open(storage);
    const memory = await openMemoryService({ dataDir: lane.dataDir, workdir: lane.workdir, store });
    const files = await listMemoryFiles({ root: memory.root });
    const onDisk = new Map(
      files.map((file) => [`${file.scope}/${file.workdirHash}/${file.slug}`, createHash("sha256").update(fs.readFileSync(file.path)).digest("hex")]),
    );
    expect(onDisk.size, "one file per entry after the reconcile").toBe(files.length);
    const indexed = new Map((await store.fileStates()).map((state) => [`${state.scope}/${state.workdirHash}/${state.slug}`, state.bodyHash]));
    expect(indexed).toEqual(onDisk);
    await memory.close();
  } finally {
    await storage.close();
  }
}

describe.skipIf(process.platform === "win32")("memory writers killed at random moments (real processes, SIGKILL)", () => {
  it(`leaves every file old or new, and the reopened index matches the files, over ${KILLS} kills`, async () => {
    const lanes = Array.from({ length: LANES }, (_, index) => makeLane(index));
    let entries = 0;
    await Promise.all(
      lanes.map(async (lane, laneIndex) => {
        for (let kill = laneIndex; kill < KILLS; kill += LANES) {
          await killWriterOnce(lane, 1 + kill);
          entries = Math.max(entries, await checkFiles(lane));
          await checkIndex(lane);
        }
      }),
    );
    expect(entries).toBeGreaterThan(3);
  }, 90_000);
});
