/**
 * Attacks on the LSP tool and diagnostics after edits through a registry's
 * `executeToolCall`, as a model calls them, with the real
 * typescript-language-server: a file `Read(secret/**)` denies, a gitignored
 * file and a file outside the workspace must not show their content
 * through the LSP's own answers (hover, document symbols, diagnostics) nor
 * through the diagnostics an Edit reports; the `path` argument cannot leave
 * the workspace (`../`, absolute, a symlink to outside); odd positions do
 * not break the server; registry.close() leaves no server process behind.
 */

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildLspAttackRegistry } from "./__fixtures__/lsp-registry.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-lsp-leaks-")));
const SECRET = "TOPSECRET-4711";
const IGNORED = "IGNORED-SECRET-0815";
const OUTSIDE = "OUTSIDE-SECRET-9999";
const PY_OUTSIDE = "PY-OUTSIDE-4242";
const PY_SECRET = "PY-DENIED-1313";

type Registry = Awaited<ReturnType<typeof buildLspAttackRegistry>>;
let registry: Registry;
let workdir: string;
let count = 0;

async function call(name: string, args: Record<string, unknown>) {
  const result = await registry.executeToolCall({ id: `${name}-${++count}`, name, arguments: args });
  return { isError: result.isError === true, text: toolResultText(result, ""), details: result.details as Record<string, unknown> | undefined };
}

/** Process ids below this process (children, grandchildren...). */
function descendants(): Set<number> {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] === "Z") continue;
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // gone
    }
  }
  const out = new Set<number>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (!out.has(pid) && (parent === process.pid || out.has(parent))) {
        out.add(pid);
        grew = true;
      }
    }
  }
  return out;
}

let before: Set<number>;

beforeAll(async () => {
  workdir = path.join(temporary, "work");
  const outside = path.join(temporary, "outside");
  fs.mkdirSync(path.join(workdir, "secret"), { recursive: true });
  fs.mkdirSync(outside, { recursive: true });
  fs.writeFileSync(
    path.join(workdir, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { strict: true, target: "ES2022", module: "ESNext", moduleResolution: "Bundler" }, include: ["**/*.ts"] }),
  );
  fs.writeFileSync(path.join(workdir, "secret", "key.ts"), `export const KEY = "${SECRET}";\nexport function ${SECRET.replace(/-/g, "_")}() {}\n`);
  fs.writeFileSync(path.join(workdir, "local.ts"), `export const LOCAL = "${IGNORED}";\n`);
  fs.writeFileSync(path.join(workdir, ".gitignore"), "local.ts\n");
  fs.writeFileSync(path.join(outside, "secret.ts"), `declare const OUTSIDE_KEY = "${OUTSIDE}";\n`);
  fs.symlinkSync(path.join(outside, "secret.ts"), path.join(workdir, "link.ts"));
  fs.writeFileSync(path.join(outside, "outside_mod.py"), `from typing import Final\nPY_KEY: Final = "${PY_OUTSIDE}"\n`);
  fs.writeFileSync(path.join(workdir, "secret", "pykey.py"), `from typing import Final\nPY_KEY: Final = "${PY_SECRET}"\n`);
  fs.writeFileSync(path.join(workdir, "a.ts"), "export const a = 1;\n");
  before = descendants();
  registry = await buildLspAttackRegistry(workdir, temporary);
}, 60_000);

afterAll(async () => {
  await registry?.close();
  fs.rmSync(temporary, { recursive: true, force: true });
});

describe("the LSP tool's path argument", () => {
  it("a Read-denied file is not answered for (hover, document_symbols, diagnostics)", async () => {
    for (const args of [
      { action: "hover", path: "secret/key.ts", line: 1, character: 14 },
      { action: "document_symbols", path: "secret/key.ts" },
      { action: "diagnostics", path: "secret/key.ts" },
    ]) {
      const result = await call("LSP", args);
      expect(result.text, JSON.stringify(args)).not.toContain(SECRET);
      expect(result.text, JSON.stringify(args)).not.toContain(SECRET.replace(/-/g, "_"));
    }
  }, 60_000);

  it("`../`, absolute paths outside and a symlink to an outside file are refused", async () => {
    for (const target of [
      "../outside/secret.ts",
      path.join(temporary, "outside", "secret.ts"),
      "link.ts",
      `file://${path.join(temporary, "outside", "secret.ts")}`,
    ]) {
      const result = await call("LSP", { action: "hover", path: target, line: 1, character: 15 });
      expect(result.text, target).not.toContain(OUTSIDE);
      const symbols = await call("LSP", { action: "document_symbols", path: target });
      expect(symbols.text, target).not.toContain("OUTSIDE_KEY");
    }
  }, 60_000);

  it("odd positions (line 0, negative, past the end, huge) are refused or answered, never a server failure", async () => {
    for (const [line, character] of [
      [0, 1],
      [-1, 1],
      [1, -5],
      [1_000_000, 1],
      [1, 1_000_000],
      [2 ** 40, 2 ** 40],
      [1.5, 1],
    ]) {
      const result = await call("LSP", { action: "hover", path: "a.ts", line, character });
      expect(result.text, `${line}:${character}`).not.toMatch(/language server failed/);
    }
    const after = await call("LSP", { action: "hover", path: "a.ts", line: 1, character: 14 });
    expect(after.isError, after.text).toBe(false);
  }, 60_000);
});

describe("contents of hidden files through the server's own answers", () => {
  // Was a finding: hover shows the type the server inferred, and a const's type is its literal
  // value. Stopped on the input side: the server's fs guard makes the Read-denied file absent.
  it("hover over an import from a Read-denied file does not show its value", async () => {
    const written = await call("Write", { path: "leak-hover.ts", content: 'import { KEY } from "./secret/key";\nexport const copy = KEY;\n' });
    expect(written.isError, written.text).toBe(false);
    const hover = await call("LSP", { action: "hover", path: "leak-hover.ts", line: 1, character: 10 });
    expect(hover.text).not.toContain(SECRET);
  }, 60_000);

  // Was a finding: a type error quoted the literal type of the denied const.
  it("diagnostics after a Write do not quote a Read-denied file's value", async () => {
    const written = await call("Write", { path: "leak-diag.ts", content: 'import { KEY } from "./secret/key";\nexport const n: 1 = KEY;\n' });
    const diagnostics = await call("LSP", { action: "diagnostics", path: "leak-diag.ts" });
    expect(`${written.text}\n${diagnostics.text}`).not.toContain(SECRET);
  }, 60_000);

  // By design: gitignored files are no boundary (Read reads them too), so the server may quote one.
  // Only the locations in them are left out of the LSP tool's results.
  it("hover over an import from a gitignored file shows its value (allowed by design: Read reads it)", async () => {
    await call("Write", { path: "leak-ignored.ts", content: 'import { LOCAL } from "./local";\nexport const copy = LOCAL;\n' });
    const hover = await call("LSP", { action: "hover", path: "leak-ignored.ts", line: 1, character: 10 });
    expect(hover.text).toContain(IGNORED);
    const read = await call("Read", { path: "local.ts" });
    expect(read.text).toContain(IGNORED);
  }, 60_000);

  // Was a finding: a triple-slash reference pulled a file outside the workspace into the program.
  it("a /// reference to a file outside the workspace does not show its content", async () => {
    const outsideFile = path.join(temporary, "outside", "secret.ts");
    await call("Write", { path: "leak-outside.ts", content: `/// <reference path="${outsideFile}" />\nexport const copy = OUTSIDE_KEY;\n` });
    const hover = await call("LSP", { action: "hover", path: "leak-outside.ts", line: 2, character: 21 });
    expect(hover.text).not.toContain(OUTSIDE);
  }, 60_000);

  it("a /// reference to a workspace symlink pointing outside does not show the outside file", async () => {
    await call("Write", {
      path: "leak-link.ts",
      content: '/// <reference path="./link.ts" />\nexport const viaLink = OUTSIDE_KEY;\nexport const n: 1 = OUTSIDE_KEY;\n',
    });
    const hover = await call("LSP", { action: "hover", path: "leak-link.ts", line: 2, character: 23 });
    const diagnostics = await call("LSP", { action: "diagnostics", path: "leak-link.ts" });
    expect(`${hover.text}\n${diagnostics.text}`).not.toContain(OUTSIDE);
  }, 60_000);

  it("Pyright: a module outside the workspace named by extraPaths does not show its value", async () => {
    await call("Write", { path: "pyrightconfig.json", content: JSON.stringify({ extraPaths: [path.join(temporary, "outside")] }) });
    await call("Write", { path: "leak_py.py", content: "from outside_mod import PY_KEY\nn: int = PY_KEY\nreveal_type(PY_KEY)\n" });
    const hover = await call("LSP", { action: "hover", path: "leak_py.py", line: 1, character: 25 });
    const diagnostics = await call("LSP", { action: "diagnostics", path: "leak_py.py" });
    expect(diagnostics.isError, diagnostics.text).toBe(false);
    expect(`${hover.text}\n${diagnostics.text}`).not.toContain(PY_OUTSIDE);
  }, 60_000);

  it("Pyright: a Read-denied module does not show its value", async () => {
    await call("Write", { path: "leak_py_denied.py", content: "from secret.pykey import PY_KEY\nn: int = PY_KEY\nreveal_type(PY_KEY)\n" });
    const hover = await call("LSP", { action: "hover", path: "leak_py_denied.py", line: 1, character: 27 });
    const diagnostics = await call("LSP", { action: "diagnostics", path: "leak_py_denied.py" });
    expect(`${hover.text}\n${diagnostics.text}`).not.toContain(PY_SECRET);
  }, 60_000);
});

describe("registry.close()", () => {
  it("leaves no language server process behind", async () => {
    const warm = await call("LSP", { action: "document_symbols", path: "a.ts" });
    expect(warm.isError, warm.text).toBe(false);
    const running = [...descendants()].filter((pid) => !before.has(pid));
    expect(running.length).toBeGreaterThan(0);
    await registry.close();
    let left = running.filter((pid) => descendants().has(pid));
    for (let round = 0; round < 50 && left.length > 0; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      left = running.filter((pid) => descendants().has(pid));
    }
    expect(left).toEqual([]);
  }, 60_000);
});
