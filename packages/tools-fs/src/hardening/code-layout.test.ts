import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const source = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const packageRoot = path.dirname(source);

/** The package's own TypeScript sources (no tests, no fixtures). */
function sources(): string[] {
  const files: string[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "__fixtures__" && entry.name !== "__snapshots__") walk(full);
      } else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) files.push(full);
    }
  };
  walk(source);
  return files;
}

describe("tools-fs code layout", () => {
  it("starts worker threads from module files, never from code strings", () => {
    const offenders = sources().filter((file) => /eval:\s*true|new Function\(|\bFunction\(\s*["'`]/.test(readFileSync(file, "utf8")));
    expect(offenders.map((file) => path.relative(source, file))).toEqual([]);
  });

  it("has no function with more than four positional parameters", () => {
    const offenders: string[] = [];
    for (const file of sources()) {
      const tree = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node) => {
        if (ts.isFunctionLike(node) && !ts.isFunctionTypeNode(node) && node.parameters.length >= 5) {
          const line = tree.getLineAndCharacterOfPosition(node.getStart()).line + 1;
          offenders.push(`${path.relative(source, file)}:${line}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(tree);
    }
    expect(offenders).toEqual([]);
  });

  it("keeps each tool folder free of imports from another tool folder", () => {
    const tools = ["read", "write", "edit", "delete", "image", "search"];
    const offenders: string[] = [];
    for (const file of sources()) {
      const folder = path.relative(source, file).split(path.sep)[0]!;
      if (!tools.includes(folder)) continue;
      for (const [, target] of readFileSync(file, "utf8").matchAll(/from "\.\.\/([a-z-]+)\//g)) {
        if (tools.includes(target!) && target !== folder) offenders.push(`${path.relative(source, file)} -> ${target}/`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("runs the hashing and Grep workers from the built files with plain node", () => {
    const dist = path.join(packageRoot, "dist");
    for (const file of ["fast-io/hash-worker-thread.js", "search/grep-worker-thread.js"]) expect(existsSync(path.join(dist, file))).toBe(true);
    const script = `
      import { HashWorker } from ${JSON.stringify(pathToFileURL(path.join(dist, "fast-io/hash-worker.js")).href)};
      import { contentHash } from ${JSON.stringify(pathToFileURL(path.join(dist, "shared/content-hash.js")).href)};
      import { GrepWorkerHost } from ${JSON.stringify(pathToFileURL(path.join(dist, "search/grep-worker-host.js")).href)};
      const hashes = new HashWorker();
      const bytes = Buffer.from("hello from a worker module\\n".repeat(1000));
      const hash = await hashes.hash([bytes]).wait();
      const hashRan = hashes.running;
      await hashes.close();
      const host = new GrepWorkerHost();
      const thread = host.acquire();
      const ready = await new Promise((resolve) => {
        thread.onMessage = (reply) => resolve(reply.ready === true);
        thread.onFailure = (error) => resolve(String(error));
      });
      await host.release(thread, false);
      await host.close();
      console.log(JSON.stringify({ same: hash === contentHash(bytes), hashRan, ready }));
    `;
    // A script file, not -e: a worker inherits the parent's execArgv, and -e is not valid there.
    const directory = mkdtempSync(path.join(os.tmpdir(), "tools-fs-worker-modules-"));
    try {
      const file = path.join(directory, "check.mjs");
      writeFileSync(file, script);
      const output = execFileSync(process.execPath, [file], { encoding: "utf8", timeout: 60_000 });
      expect(JSON.parse(output.trim())).toEqual({ same: true, hashRan: true, ready: true });
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
