/**
 * Attacks on NotebookEdit through a registry's `executeToolCall`, as a
 * model calls it: a symlinked .ipynb (leaf and folder) pointing outside,
 * `Edit(protected/**)` deny by every spelling, plan mode, a notebook
 * replaced between Read and NotebookEdit, a FIFO named .ipynb, non-notebooks,
 * a cell source that would break the JSON splice (quotes, backslashes,
 * U+2028, lone surrogates, NUL, `</script>`), duplicate `cells` keys (the
 * splice must land in the cells JSON.parse and Jupyter see), `__proto__`
 * keys, deeply nested outputs, and a huge notebook.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-notebook-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

let count = 0;

function notebook(sources: string[], extra: Record<string, unknown> = {}): string {
  return `${JSON.stringify(
    {
      cells: sources.map((source, index) => ({
        cell_type: "code",
        execution_count: 1,
        id: `cell-${index}`,
        metadata: {},
        outputs: [{ name: "stdout", output_type: "stream", text: [`out ${index}\n`] }],
        source: [source],
      })),
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5,
      ...extra,
    },
    null,
    1,
  )}\n`;
}

async function scene(options: Record<string, unknown> = {}) {
  count += 1;
  const base = path.join(temporary, `s${count}`);
  const workdir = path.join(base, "work");
  const outside = path.join(base, "outside");
  fs.mkdirSync(path.join(workdir, "protected"), { recursive: true });
  fs.mkdirSync(outside, { recursive: true });
  fs.writeFileSync(path.join(outside, "o.ipynb"), notebook(["print('outside')\n"]));
  fs.writeFileSync(path.join(workdir, "protected", "p.ipynb"), notebook(["print('protected')\n"]));
  fs.writeFileSync(path.join(workdir, "n.ipynb"), notebook(["a = 1\n", "b = 2\n"]));
  fs.symlinkSync(path.join(outside, "o.ipynb"), path.join(workdir, "link.ipynb"));
  fs.symlinkSync(outside, path.join(workdir, "out"));
  fs.symlinkSync("protected", path.join(workdir, "prot"));
  const registry = await buildBuiltinToolRegistry({
    workdir,
    dataDir: path.join(base, "data"),
    memory: false,
    approval: { defaultDecision: "allow" },
    ...options,
  } as never);
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await registry.executeToolCall({ id: `${name}-${++count}`, name, arguments: args });
    return { isError: result.isError === true, text: toolResultText(result, ""), details: result.details as Record<string, unknown> | undefined };
  };
  return { base, workdir, outside, registry, call };
}

const snapshot = (file: string) => fs.readFileSync(file, "utf8");

describe("where NotebookEdit writes", () => {
  it("never through a symlinked notebook or folder to outside, by any spelling", async () => {
    const { workdir, outside, registry, call } = await scene();
    try {
      const before = snapshot(path.join(outside, "o.ipynb"));
      for (const target of ["link.ipynb", "out/o.ipynb", path.join(workdir, "out", "o.ipynb"), path.join(outside, "o.ipynb"), "../outside/o.ipynb"]) {
        await call("Read", { path: target });
        for (const edit_mode of ["replace", "insert", "delete"]) {
          const result = await call("NotebookEdit", { path: target, cell_index: 1, new_source: "import os; os.system('id')", cell_type: "code", edit_mode });
          expect(result.isError, `${target} ${edit_mode}: ${result.text}`).toBe(true);
        }
      }
      expect(snapshot(path.join(outside, "o.ipynb"))).toBe(before);
      expect(fs.readlinkSync(path.join(workdir, "link.ipynb"))).toBe(path.join(outside, "o.ipynb"));
    } finally {
      await registry.close();
    }
  });

  it("Edit(protected/**) deny holds for NotebookEdit by every spelling", async () => {
    const { workdir, registry, call } = await scene({ permissions: { deny: ["Edit(protected/**)"] } });
    try {
      const file = path.join(workdir, "protected", "p.ipynb");
      const before = snapshot(file);
      for (const target of [
        "protected/p.ipynb",
        "./protected/p.ipynb",
        "x/../protected/p.ipynb",
        file,
        "prot/p.ipynb",
        "protected//p.ipynb",
        "PROTECTED/p.ipynb",
      ]) {
        await call("Read", { path: target });
        const result = await call("NotebookEdit", { path: target, cell_id: "cell-0", new_source: "pwned = 1" });
        expect(result.isError, `${target}: ${result.text}`).toBe(true);
      }
      expect(snapshot(file)).toBe(before);
    } finally {
      await registry.close();
    }
  });

  it("plan mode refuses NotebookEdit", async () => {
    const { workdir, registry, call } = await scene({ interaction: { planMode: true } });
    try {
      const before = snapshot(path.join(workdir, "n.ipynb"));
      await call("Read", { path: "n.ipynb" });
      const result = await call("NotebookEdit", { path: "n.ipynb", cell_id: "cell-0", new_source: "pwned = 1" });
      expect(result.isError).toBe(true);
      expect(snapshot(path.join(workdir, "n.ipynb"))).toBe(before);
    } finally {
      await registry.close();
    }
  });

  it("a notebook replaced after the Read is stale; a FIFO and non-notebooks are refused without hanging", async () => {
    const { workdir, registry, call } = await scene();
    try {
      const file = path.join(workdir, "n.ipynb");
      await call("Read", { path: "n.ipynb" });
      fs.writeFileSync(file, notebook(["replaced = 1\n", "b = 2\n"]));
      const stale = await call("NotebookEdit", { path: "n.ipynb", cell_id: "cell-0", new_source: "x" });
      expect(stale.isError, stale.text).toBe(true);
      expect(stale.details?.code).toBe("stale_file");
      execFileSync("mkfifo", [path.join(workdir, "fifo.ipynb")]);
      const fifo = await call("NotebookEdit", { path: "fifo.ipynb", cell_index: 1, new_source: "x" });
      expect(fifo.isError).toBe(true);
      fs.writeFileSync(path.join(workdir, "plain.ipynb"), "not json {");
      fs.writeFileSync(path.join(workdir, "v3.ipynb"), JSON.stringify({ nbformat: 3, worksheets: [] }));
      fs.writeFileSync(path.join(workdir, "proto.ipynb"), '{"__proto__": {"nbformat": 4, "cells": []}, "cells": []}');
      fs.writeFileSync(path.join(workdir, "code.py"), "x = 1\n");
      for (const target of ["plain.ipynb", "v3.ipynb", "proto.ipynb", "code.py"]) {
        const before = snapshot(path.join(workdir, target));
        await call("Read", { path: target });
        const result = await call("NotebookEdit", { path: target, cell_index: 1, new_source: "x", cell_type: "code", edit_mode: "insert" });
        expect(result.isError, `${target}: ${result.text}`).toBe(true);
        expect(snapshot(path.join(workdir, target))).toBe(before);
      }
    } finally {
      await registry.close();
    }
  });
});

describe("what NotebookEdit writes", () => {
  it("hostile sources keep the file valid JSON, round-trip exactly and change no other cell", async () => {
    const { workdir, registry, call } = await scene();
    try {
      const file = path.join(workdir, "n.ipynb");
      const hostile = [
        'x = "\\"},{\\"cell_type\\": \\"code\\"}]}\n',
        "a\\\\b\\u0041\\n\"'`",
        "line\u2028sep\u2029para",
        "lone \ud800 and \udfff surrogates",
        "nul \u0000 bell \u0007 esc \u001b[31m",
        "</script><script>alert(1)</script>",
        '"],"outputs":[{"output_type":"stream","name":"stdout","text":["PWNED"]}],"x":["',
        "\r\nwindows\rmac\n",
        "",
      ];
      for (const source of hostile) {
        await call("Read", { path: "n.ipynb" });
        const result = await call("NotebookEdit", { path: "n.ipynb", cell_id: "cell-0", new_source: source });
        expect(result.isError, result.text).toBe(false);
        const parsed = JSON.parse(snapshot(file)) as { cells: Array<{ source: string | string[]; id: string; outputs: unknown[] }> };
        expect(parsed.cells.length).toBe(2);
        const written = parsed.cells[0]!;
        expect(Array.isArray(written.source) ? written.source.join("") : written.source).toBe(source);
        expect(written.outputs).toEqual([]);
        expect(parsed.cells[1]!.source).toEqual(["b = 2\n"]);
        expect(JSON.stringify(parsed.cells.map((cell) => cell.outputs))).not.toContain("PWNED");
        expect(Object.keys(written).sort()).toEqual(["cell_type", "execution_count", "id", "metadata", "outputs", "source"]);
      }
    } finally {
      await registry.close();
    }
  });

  it("inserted cells get fresh ids even when the existing ids look generated; a colliding cell_id is not created", async () => {
    const { workdir, registry, call } = await scene();
    try {
      const file = path.join(workdir, "n.ipynb");
      for (let round = 0; round < 5; round += 1) {
        await call("Read", { path: "n.ipynb" });
        const result = await call("NotebookEdit", { path: "n.ipynb", cell_index: 1, new_source: `r${round}`, cell_type: "markdown", edit_mode: "insert" });
        expect(result.isError, result.text).toBe(false);
      }
      const ids = (JSON.parse(snapshot(file)) as { cells: Array<{ id: string }> }).cells.map((cell) => cell.id);
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      await registry.close();
    }
  });

  // With two "cells" keys JSON.parse (and Jupyter) keep the last one: a splice into the first would
  // report an edit Jupyter never shows.
  it("a notebook with duplicate `cells` keys: the edit lands in the cells Jupyter reads, or is refused", async () => {
    const { workdir, registry, call } = await scene();
    try {
      const file = path.join(workdir, "dup.ipynb");
      const shown = JSON.parse(notebook(["visible = 1\n"])) as Record<string, unknown>;
      const hidden = JSON.parse(notebook(["hidden = 1\n"])) as { cells: unknown[] };
      const text = `{\n "cells": ${JSON.stringify(hidden.cells)},\n${JSON.stringify(shown, null, 1).slice(2)}`;
      fs.writeFileSync(file, text);
      await call("Read", { path: "dup.ipynb" });
      const result = await call("NotebookEdit", { path: "dup.ipynb", cell_id: "cell-0", new_source: "edited = 1\n" });
      const after = JSON.parse(snapshot(file)) as { cells: Array<{ source: string[] }> };
      if (!result.isError) expect(after.cells[0]!.source.join("")).toBe("edited = 1\n");
      else expect(snapshot(file)).toBe(text);
    } finally {
      await registry.close();
    }
  });

  it("deeply nested outputs and a large notebook are edited or refused, never crash the host", async () => {
    const { workdir, registry, call } = await scene();
    try {
      const deep = path.join(workdir, "deep.ipynb");
      const nested = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
      fs.writeFileSync(deep, notebook(["a = 1\n", "b = 2\n"]).replace('"outputs": [', `"outputs": [${nested},`));
      await call("Read", { path: "deep.ipynb" });
      const result = await call("NotebookEdit", { path: "deep.ipynb", cell_id: "cell-1", new_source: "c = 3\n" });
      if (!result.isError) expect((JSON.parse(snapshot(deep)) as { cells: Array<{ source: string[] }> }).cells[1]!.source.join("")).toBe("c = 3\n");
      const large = path.join(workdir, "large.ipynb");
      fs.writeFileSync(large, notebook(Array.from({ length: 20_000 }, (_, index) => `v${index} = ${index}\n`)));
      await call("Read", { path: "large.ipynb" });
      const edited = await call("NotebookEdit", { path: "large.ipynb", cell_index: 19_999, new_source: "last = 1\n" });
      if (!edited.isError) {
        const cells = (JSON.parse(snapshot(large)) as { cells: Array<{ source: string[] }> }).cells;
        expect(cells[19_998]!.source.join("")).toBe("last = 1\n");
        expect(cells[19_999]!.source.join("")).toBe("v19999 = 19999\n");
      }
    } finally {
      await registry.close();
    }
  }, 60_000);
});
