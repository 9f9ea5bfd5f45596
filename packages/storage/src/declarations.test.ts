import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const repositoryRoot = path.resolve(packageRoot, "../..");
const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-storage-declarations-"));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const tsc = path.join(repositoryRoot, "node_modules", "typescript", "bin", "tsc");
const run = (args: string[]) => promisify(execFile)(process.execPath, [tsc, ...args], { cwd: temporary, timeout: 120_000 });

/** A consumer that installed the storage package (declarations emitted from src) with kysely and core, but neither better-sqlite3, pg nor their types. */
function consumerProject(): string {
  const project = path.join(temporary, "consumer");
  const modules = path.join(project, "node_modules");
  fs.mkdirSync(path.join(modules, "@agent-tools", "storage"), { recursive: true });
  fs.mkdirSync(path.join(modules, "@types"), { recursive: true });
  fs.copyFileSync(path.join(packageRoot, "package.json"), path.join(modules, "@agent-tools", "storage", "package.json"));
  fs.symlinkSync(path.join(repositoryRoot, "packages", "core"), path.join(modules, "@agent-tools", "core"));
  fs.symlinkSync(fs.realpathSync(path.join(packageRoot, "node_modules", "kysely")), path.join(modules, "kysely"));
  fs.symlinkSync(fs.realpathSync(path.join(repositoryRoot, "node_modules", "@types", "node")), path.join(modules, "@types", "node"));
  fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ type: "module" }));
  fs.writeFileSync(
    path.join(project, "main.ts"),
    [
      'import { type SqliteDriverChoice, openSqliteStorage, openPostgresStorage } from "@agent-tools/storage";',
      'import { createStoreTestBackends, sqliteTestBackends } from "@agent-tools/storage/testing";',
      'const driver: SqliteDriverChoice = "node:sqlite";',
      'const storage = await openSqliteStorage({ dataDir: "/tmp/x", driver });',
      "await storage.close();",
      "console.log(openPostgresStorage, createStoreTestBackends, sqliteTestBackends);",
      "",
    ].join("\n"),
  );
  const compilerOptions = {
    strict: true,
    module: "nodenext",
    moduleResolution: "nodenext",
    target: "es2022",
    skipLibCheck: false,
    noEmit: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    types: ["node"],
  };
  fs.writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["main.ts"] }));
  return project;
}

describe("the storage package's declarations", () => {
  it("type-check with skipLibCheck: false for a consumer without better-sqlite3, pg or their types", async () => {
    const project = consumerProject();
    const dist = path.join(project, "node_modules", "@agent-tools", "storage", "dist");
    await run([
      "-p",
      path.join(packageRoot, "tsconfig.json"),
      "--emitDeclarationOnly",
      "--outDir",
      dist,
      "--tsBuildInfoFile",
      path.join(temporary, "tsbuildinfo"),
    ]);
    const declarations = fs.readdirSync(dist, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".d.ts"));
    expect(declarations).toContain("index.d.ts");
    const result = await run(["-p", path.join(project, "tsconfig.json")]).then(
      () => "ok",
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(result).toBe("ok");
  }, 180_000);
});
