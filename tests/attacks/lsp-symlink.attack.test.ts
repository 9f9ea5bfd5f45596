/**
 * A Read-denied file reached through a symlink the model made in the
 * workspace (a file link `alias.ts -> secret/key.ts`, a folder link
 * `s -> secret`, a link to a file outside): the LSP tool's own path
 * argument (the host reads that document and hands it to the server) and
 * an import through the link must not show the file's content, in hover,
 * document symbols, diagnostics or the diagnostics an Edit reports.
 */

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildLspAttackRegistry } from "./__fixtures__/lsp-registry.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-lsp-symlink-")));
const SECRET = "LINKED-SECRET-5150";
const OUTSIDE = "LINKED-OUTSIDE-6160";
type Registry = Awaited<ReturnType<typeof buildLspAttackRegistry>>;
let registry: Registry;
let count = 0;

async function call(name: string, args: Record<string, unknown>) {
  const result = await registry.executeToolCall({ id: `${name}-${++count}`, name, arguments: args });
  return toolResultText(result, "");
}

beforeAll(async () => {
  const workdir = path.join(temporary, "work");
  const outside = path.join(temporary, "outside");
  fs.mkdirSync(path.join(workdir, "secret"), { recursive: true });
  fs.mkdirSync(outside, { recursive: true });
  fs.writeFileSync(
    path.join(workdir, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { strict: true, target: "ES2022", module: "ESNext", moduleResolution: "Bundler" }, include: ["*.ts"] }),
  );
  fs.writeFileSync(path.join(workdir, "secret", "key.ts"), `export const KEY = "${SECRET}";\n`);
  fs.writeFileSync(path.join(outside, "out.ts"), `export const OUT = "${OUTSIDE}";\n`);
  // What a model's Bash (`ln -s`) makes.
  fs.symlinkSync("secret/key.ts", path.join(workdir, "alias.ts"));
  fs.symlinkSync("secret", path.join(workdir, "s"));
  fs.symlinkSync(path.join(outside, "out.ts"), path.join(workdir, "outlink.ts"));
  fs.writeFileSync(path.join(workdir, "a.ts"), "export const a = 1;\n");
  registry = await buildLspAttackRegistry(workdir, temporary);
}, 60_000);

afterAll(async () => {
  await registry?.close();
  fs.rmSync(temporary, { recursive: true, force: true });
});

describe("a Read-denied or outside file behind a workspace symlink", () => {
  it("is not answered for as the LSP path (hover, document_symbols, diagnostics)", async () => {
    for (const target of ["alias.ts", "s/key.ts", "./s/../alias.ts", "outlink.ts"]) {
      for (const args of [
        { action: "hover", path: target, line: 1, character: 14 },
        { action: "document_symbols", path: target },
        { action: "diagnostics", path: target },
        { action: "references", path: target, line: 1, character: 14 },
      ]) {
        const text = await call("LSP", args);
        expect(text, `${target} ${args.action}`).not.toContain(SECRET);
        expect(text, `${target} ${args.action}`).not.toContain(OUTSIDE);
      }
    }
  }, 90_000);

  it("is not quoted through an import of the link (hover, Write's diagnostics)", async () => {
    const written = await call("Write", {
      path: "via-link.ts",
      content:
        'import { KEY } from "./alias";\nimport { KEY as K2 } from "./s/key";\nimport { OUT } from "./outlink";\nexport const n: 1 = KEY;\nexport const m: 1 = K2;\nexport const o: 1 = OUT;\n',
    });
    const hovers = [
      await call("LSP", { action: "hover", path: "via-link.ts", line: 1, character: 10 }),
      await call("LSP", { action: "hover", path: "via-link.ts", line: 2, character: 17 }),
      await call("LSP", { action: "hover", path: "via-link.ts", line: 3, character: 10 }),
      await call("LSP", { action: "diagnostics", path: "via-link.ts" }),
    ];
    for (const text of [written, ...hovers]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(OUTSIDE);
    }
  }, 90_000);
});
