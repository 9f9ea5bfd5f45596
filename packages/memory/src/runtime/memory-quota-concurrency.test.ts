import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Storage, openSqliteStorage } from "@agent-tools/storage";
import { afterAll, describe, expect, it } from "vitest";
import { bundleChild } from "./__fixtures__/bundle-child.js";
import { KyselyMemoryIndexStore } from "../stores/kysely-memory-index-store.js";
import { type MemoryService, openMemoryService } from "./memory-service.js";

const packageDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-memory-quota-")));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const QUOTA = 20;
const WRITERS = 8;

/** `count` services on one dataDir, each with its own connection to one SQLite file (as separate registries or processes have). */
async function openWriters(name: string, count: number): Promise<{ services: MemoryService[]; storages: Storage[] }> {
  const dataDir = path.join(root, name, "data");
  const workdir = path.join(root, name, "project");
  fs.mkdirSync(workdir, { recursive: true });
  const filename = path.join(root, name, "index.sqlite");
  const storages: Storage[] = [];
  const services: MemoryService[] = [];
  for (let index = 0; index < count; index += 1) {
    const storage = await openSqliteStorage({ filename });
    storages.push(storage);
    services.push(await openMemoryService({ dataDir, workdir, store: await KyselyMemoryIndexStore.open(storage), entriesPerScope: QUOTA }));
  }
  return { services, storages };
}

const entry = (slug: string) => ({ slug, scope: "global" as const, type: "reference", description: `Entry ${slug}`, body: `body of ${slug}` });

describe("the memory quota under concurrent writers", () => {
  it(`never passes ${QUOTA} entries when ${WRITERS} writers on separate connections create entries at the edge`, async () => {
    const { services, storages } = await openWriters("writes", WRITERS);
    try {
      for (let index = 0; index < QUOTA - 4; index += 1) expect((await services[0]!.write(entry(`prefill-${index}`))).ok).toBe(true);
      const results = await Promise.all(services.flatMap((service, writer) => [0, 1, 2, 3].map((n) => service.write(entry(`writer-${writer}-${n}`)))));
      const refused = results.filter((result) => !result.ok);
      expect(refused.every((result) => !result.ok && result.error.error === "quota_exceeded")).toBe(true);
      expect(results.filter((result) => result.ok)).toHaveLength(4);
      for (const service of services) expect(await service.store.countEntries({ scope: "global", workdirHash: "", slug: "x" })).toBe(QUOTA);
      const files = fs.readdirSync(path.join(root, "writes", "data", "memory", "global")).filter((name) => name.endsWith(".md"));
      expect(files).toHaveLength(QUOTA);
    } finally {
      await Promise.all(storages.map((storage) => storage.close()));
    }
  }, 60_000);

  it("holds for extractor batches racing plain writes too", async () => {
    const { services, storages } = await openWriters("batches", WRITERS);
    try {
      for (let index = 0; index < QUOTA - 6; index += 1) expect((await services[0]!.write(entry(`prefill-${index}`))).ok).toBe(true);
      await Promise.all(
        services.map((service, writer) =>
          writer % 2 === 0
            ? service.applyBatch(
                [0, 1, 2].map((n) => ({ action: "write" as const, ...entry(`batch-${writer}-${n}`) })),
                { actor: "extractor" },
              )
            : Promise.all([0, 1, 2].map((n) => service.write(entry(`plain-${writer}-${n}`)))),
        ),
      );
      for (const service of services) expect(await service.store.countEntries({ scope: "global", workdirHash: "", slug: "x" })).toBeLessThanOrEqual(QUOTA);
      const files = fs.readdirSync(path.join(root, "batches", "data", "memory", "global")).filter((name) => name.endsWith(".md"));
      expect(files.length).toBeLessThanOrEqual(QUOTA);
    } finally {
      await Promise.all(storages.map((storage) => storage.close()));
    }
  }, 60_000);

  it("holds across processes: 4 writer processes at the edge end at the quota", async () => {
    const { services, storages } = await openWriters("processes", 1);
    const dataDir = path.join(root, "processes", "data");
    const workdir = path.join(root, "processes", "project");
    const filename = path.join(root, "processes", "index.sqlite");
    try {
      for (let index = 0; index < QUOTA - 6; index += 1) expect((await services[0]!.write(entry(`prefill-${index}`))).ok).toBe(true);
      const bundleDirectory = path.join(root, "processes", "bundle");
      fs.mkdirSync(bundleDirectory);
      const writer = await bundleChild(path.join(packageDirectory, "src/runtime/__fixtures__/memory-quota-writer-child.ts"), bundleDirectory);
      const children = Array.from({ length: 4 }, (_, index) => {
        const child = spawn(writer.command, [...writer.args, dataDir, workdir, filename, String(QUOTA), `proc-${index}`, "4"], {
          cwd: packageDirectory,
          stdio: ["pipe", "pipe", "pipe"],
        });
        let output = "";
        let stderr = "";
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString();
        });
        child.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
        });
        const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
        return { child, exited, output: () => output, stderr: () => stderr };
      });
      const deadline = Date.now() + 60_000;
      while (!children.every((child) => child.output().includes("ready"))) {
        if (Date.now() > deadline) throw new Error(`writers did not start: ${children.map((child) => child.stderr()).join("\n")}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      for (const { child } of children) child.stdin.write("go\n");
      const codes = await Promise.all(children.map((child) => child.exited));
      expect(codes, children.map((child) => child.stderr()).join("\n")).toEqual([0, 0, 0, 0]);
      const reports = children.map((child) => JSON.parse(child.output().split("\n")[1]!) as { created: number; refused: string[] });
      expect(reports.reduce((sum, report) => sum + report.created, 0)).toBe(6);
      expect(reports.flatMap((report) => report.refused).every((code) => code === "quota_exceeded")).toBe(true);
      expect(await services[0]!.store.countEntries({ scope: "global", workdirHash: "", slug: "x" })).toBe(QUOTA);
      expect(fs.readdirSync(path.join(dataDir, "memory", "global")).filter((name) => name.endsWith(".md"))).toHaveLength(QUOTA);
    } finally {
      await Promise.all(storages.map((storage) => storage.close()));
    }
  }, 120_000);
});
