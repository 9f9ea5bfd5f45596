/**
 * A model-written Python workspace must not make Pyright (started by the
 * LSP tool, `lsp: true`) run code from it: pyrightconfig.json and
 * pyproject.toml `[tool.pyright]` naming a venv whose `bin/python` leaves
 * a marker, `executionEnvironments` with their own roots, and modules in
 * the workspace (`json.py`, `encodings/`, `sitecustomize.py`) that a host
 * interpreter started in the workspace would import. A marker outside the
 * workspace proves any run.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { pythonServerConfig, resolveSdkLanguageServers } from "../../packages/lsp/src/runtime/index.js";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-lsp-pyright-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

function plant(workdir: string, marker: string, config: "pyrightconfig" | "pyproject") {
  fs.mkdirSync(workdir, { recursive: true });
  const drop = (what: string) => `import os\nopen(${JSON.stringify(marker)} + "-" + ${JSON.stringify(what)}, "w").write("ran")\n`;
  for (const venv of ["venv", ".venv"]) {
    const bin = path.join(workdir, venv, "bin");
    fs.mkdirSync(bin, { recursive: true });
    for (const name of ["python", "python3"]) {
      fs.writeFileSync(path.join(bin, name), `#!/bin/sh\necho ran > ${JSON.stringify(`${marker}-${venv}-${name}`)}\nexit 1\n`, { mode: 0o755 });
    }
    fs.writeFileSync(path.join(workdir, venv, "pyvenv.cfg"), "home = /usr/bin\nversion = 3.11.0\n");
    fs.mkdirSync(path.join(workdir, venv, "lib", "python3.11", "site-packages"), { recursive: true });
  }
  fs.writeFileSync(path.join(workdir, "json.py"), drop("json"));
  fs.writeFileSync(path.join(workdir, "sitecustomize.py"), drop("sitecustomize"));
  fs.mkdirSync(path.join(workdir, "encodings"), { recursive: true });
  fs.writeFileSync(path.join(workdir, "encodings", "__init__.py"), drop("encodings"));
  const settings = {
    venvPath: ".",
    venv: "venv",
    pythonPath: path.join(workdir, "venv", "bin", "python"),
    executionEnvironments: [{ root: ".", pythonPath: path.join(workdir, ".venv", "bin", "python") }],
  };
  if (config === "pyrightconfig") fs.writeFileSync(path.join(workdir, "pyrightconfig.json"), JSON.stringify(settings));
  else
    fs.writeFileSync(
      path.join(workdir, "pyproject.toml"),
      `[tool.pyright]\nvenvPath = "."\nvenv = "venv"\npythonPath = ${JSON.stringify(settings.pythonPath)}\n[[tool.pyright.executionEnvironments]]\nroot = "."\n`,
    );
  fs.mkdirSync(path.join(workdir, ".vscode"), { recursive: true });
  fs.writeFileSync(
    path.join(workdir, ".vscode", "settings.json"),
    JSON.stringify({ "python.pythonPath": settings.pythonPath, "python.defaultInterpreterPath": settings.pythonPath }),
  );
  fs.writeFileSync(path.join(workdir, "a.py"), "import requests\nx: int = 'no'\n");
}

/**
 * The control: a host's own Pyright config pointing at the workspace's venv (only the host can set
 * it): the venv's python runs and leaves its marker, so the markers can appear.
 */
function hostPointsAtVenv(pythonPath: string) {
  const config = pythonServerConfig(resolveSdkLanguageServers());
  return { ...config, settings: { python: { pythonPath, analysis: { diagnosticMode: "openFilesOnly" } } } };
}

describe("Pyright on a model-written workspace", () => {
  for (const [config, control] of [
    ["pyrightconfig", false],
    ["pyproject", false],
    ["pyrightconfig", true],
  ] as const) {
    it(`${control ? "control: a host config naming the venv's python runs it" : "runs no interpreter or module of the workspace"} (${config})`, async () => {
      const base = path.join(temporary, `${config}-${control}`);
      const workdir = path.join(base, "work");
      const marker = path.join(base, "marker");
      plant(workdir, marker, config);
      const registry = await buildBuiltinToolRegistry({
        workdir,
        dataDir: path.join(base, "data"),
        memory: false,
        lsp: control ? { servers: [hostPointsAtVenv(path.join(workdir, "venv", "bin", "python"))] } : true,
        approval: { defaultDecision: "allow" },
      } as never);
      try {
        let text = "";
        for (let round = 0; round < 10 && !/error/.test(text); round += 1) {
          const result = await registry.executeToolCall({ id: `d${round}`, name: "LSP", arguments: { action: "diagnostics", path: "a.py" } });
          text = toolResultText(result, "");
        }
        // The server did check the file (so it had every chance to run something).
        expect(text).toMatch(/error/);
        await registry.executeToolCall({ id: "h", name: "LSP", arguments: { action: "hover", path: "a.py", line: 2, character: 1 } });
      } finally {
        await registry.close();
      }
      const markers = fs.readdirSync(base).filter((name) => name.startsWith("marker"));
      if (control) expect(markers.length).toBeGreaterThan(0);
      else expect(markers).toEqual([]);
    }, 90_000);
  }
});
