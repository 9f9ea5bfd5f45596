import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ExecaProcessRunner } from "@agent-tools/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pythonServerConfig, resolveSdkLanguageServers } from "./language-server-config.js";
import { createLanguageServerManager } from "./language-server-manager.js";
import { createLspEditDiagnostics } from "./lsp-edit-diagnostics.js";

/** A model-written interpreter: running it leaves a marker. */
async function plantInterpreter(root: string, marker: string): Promise<void> {
  const bin = join(root, "venv", "bin");
  await mkdir(bin, { recursive: true });
  for (const name of ["python", "python3"]) {
    await writeFile(join(bin, name), `#!/bin/sh\necho ran > '${marker}'\nexit 1\n`);
    await chmod(join(bin, name), 0o755);
  }
  await writeFile(join(root, "pyrightconfig.json"), JSON.stringify({ venvPath: ".", venv: "venv" }));
}

describe("pyright (real)", () => {
  let root: string;
  let runner: ExecaProcessRunner;

  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), "lsp-pyright-")));
    runner = new ExecaProcessRunner();
  });

  afterAll(async () => {
    await runner.close();
    await rm(root, { recursive: true, force: true });
  });

  it("reports a type error in a .py file and never runs the workspace's venv python", async () => {
    const project = join(root, "safe");
    const marker = join(root, "safe-marker");
    await mkdir(project);
    await plantInterpreter(project, marker);
    await writeFile(join(project, "app.py"), "def twice(x: int) -> int:\n    return x * 2\n\nvalue: str = twice(2)\n");
    // Even with the workspace's venv first on PATH (a host whose environment has it activated), the pinned path is used.
    const config = pythonServerConfig(resolveSdkLanguageServers());
    const pinned = { ...config, env: { PATH: `${join(project, "venv", "bin")}:/usr/bin:/bin` } };
    const manager = createLanguageServerManager({ workspaceRoot: project, processes: runner, readFile: (path) => readFile(path), servers: [pinned] });
    try {
      const result = await manager.diagnostics(join(project, "app.py"), { waitMs: 30_000 });
      expect(result.status).toBe("ready");
      const errors = result.diagnostics.filter((diagnostic) => diagnostic.severity === 1);
      expect(errors.map((diagnostic) => [diagnostic.range.start.line, diagnostic.code])).toEqual([[3, "reportAssignmentType"]]);
      expect(errors[0]?.message).toContain('"int" is not assignable to "str"');
      expect(existsSync(marker)).toBe(false);

      // Diagnostics after edits: a clean change stays clean (not pending), a new error is reported.
      const provider = createLspEditDiagnostics(manager, { budgetMs: 30_000, displayPath: (path) => path.slice(project.length + 1) });
      const app = join(project, "app.py");
      const change = { path: app, displayPath: "app.py", change: "modified" as const };
      let baseline = await provider.before([app]);
      await writeFile(app, "def twice(x: int) -> int:\n    return x * 2\n\nvalue: str = twice(2)\nother = 1\n");
      expect((await provider.after(baseline, [change]))?.details).toMatchObject({ status: "clean", resolvedCount: 0 });
      baseline = await provider.before([app]);
      await writeFile(app, 'def twice(x: int) -> int:\n    return x * 2\n\nvalue: str = twice(2)\nother: int = "no"\n');
      const report = await provider.after(baseline, [change]);
      expect(report?.details.status).toBe("new_problems");
      expect(report?.text).toMatch(
        /^New problems after this change \(Python\):\n app\.py:5:14 error reportAssignmentType Type "Literal\['no'\]" is not assignable to declared type "int"/,
      );
    } finally {
      await manager.close();
    }
  });

  it("without the pinned python path pyright runs the python it finds on PATH, here the planted one (what the pin prevents)", async () => {
    const project = join(root, "unsafe");
    const marker = join(root, "unsafe-marker");
    await mkdir(project);
    await plantInterpreter(project, marker);
    await writeFile(join(project, "app.py"), "x: int = 1\n");
    const config = pythonServerConfig(resolveSdkLanguageServers());
    const unpinned = {
      ...config,
      env: { PATH: `${join(project, "venv", "bin")}:/usr/bin:/bin` },
      settings: { python: { analysis: { diagnosticMode: "openFilesOnly" } } },
    };
    const manager = createLanguageServerManager({ workspaceRoot: project, processes: runner, readFile: (path) => readFile(path), servers: [unpinned] });
    try {
      await manager.diagnostics(join(project, "app.py"), { waitMs: 30_000 });
      expect(existsSync(marker)).toBe(true);
    } finally {
      await manager.close();
    }
  });
});
