import { spawn } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { type TestWorkspace, createTestWorkspace } from "../__fixtures__/workspace.js";
import { isToolSidecarName } from "@agent-tools/file-io/internal";

const packageDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const writerScript = path.join(packageDirectory, "src/__fixtures__/write-loop-child.ts");

let ws: TestWorkspace;
afterEach(async () => {
  await ws?.registry.close();
  ws?.cleanup();
});

const sidecars = (directory: string) => readdirSync(directory).filter((name) => isToolSidecarName(name));

/** Starts a writer of big.txt and SIGKILLs it as soon as its temporary file appears. */
async function killMidWrite(workdir: string): Promise<void> {
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=@agent-tools/source", writerScript, workdir, "out/big.txt", "24"], {
    cwd: packageDirectory,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 60_000;
  const before = new Set(sidecars(path.join(workdir, "out")));
  while (Date.now() < deadline) {
    const fresh = sidecars(path.join(workdir, "out")).filter((name) => name.endsWith(".tmp") && !before.has(name));
    if (fresh.length > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  child.kill("SIGKILL");
  await exited;
}

describe.skipIf(process.platform !== "linux")("writers killed mid-write (real processes, SIGKILL)", () => {
  it("leaves the old or the new file, hides the leftovers from List/Glob/Grep, and the next Write sweeps them", async () => {
    ws = createTestWorkspace({ "out/keep.txt": "keep\n" });
    const out = path.join(ws.dir, "out");
    for (let kill = 0; kill < 3; kill += 1) await killMidWrite(ws.dir);
    const left = sidecars(out);
    expect(left.some((name) => name.endsWith(".tmp"))).toBe(true);
    expect(left.some((name) => name.endsWith(".agent-tools.lock"))).toBe(true);
    // big.txt, if present, is one whole round: never torn.
    try {
      const big = readFileSync(path.join(out, "big.txt"), "utf8");
      expect(big.length).toBe(big.indexOf("\n") + 1 + 24 * 1024 * 1024);
    } catch (error) {
      expect((error as { code?: string }).code).toBe("ENOENT");
    }
    const list = await ws.call("List", { path: "out" });
    const glob = await ws.call("Glob", { pattern: "**/*", path: "out" });
    const grep = await ws.call("Grep", { pattern: "xxxx", path: "out", output_mode: "files" });
    const lockGrep = await ws.call("Grep", { pattern: "[0-9]+ [0-9]+ [0-9a-f]+", path: "out", output_mode: "files" });
    const typeScript = createTestWorkspace({}, { ripgrepPath: false, dir: ws.dir });
    const grepTypeScript = await typeScript.call("Grep", { pattern: "xxxx", path: "out", output_mode: "files" });
    await typeScript.registry.close();
    for (const result of [list, glob, grep, lockGrep, grepTypeScript]) {
      expect(result.isError).toBe(false);
      expect(result.text).not.toMatch(/\.tmp|agent-tools\.lock/);
    }
    // The next mutation of the file breaks the dead writer's lock and sweeps its temporary files.
    await ws.call("Delete", { path: "out/big.txt" });
    const write = await ws.call("Write", { path: "out/big.txt", content: "small\n" });
    expect(write.isError).toBe(false);
    expect(sidecars(out)).toEqual([]);
    expect(readFileSync(path.join(out, "big.txt"), "utf8")).toBe("small\n");
  });
});
