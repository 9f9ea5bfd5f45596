/**
 * The LSP read guard (the language servers' `fs` made to find Read-denied
 * paths absent) checks a path's canonical form and then reads by name: a
 * model's Bash that keeps swapping `flip.ts` between a plain file and a
 * symlink to `secret/key.ts` (both by an atomic rename) races that check.
 * The hover over an import of `./flip` must never show the denied value
 * (`ATTACK_ROUNDS` hovers, default 40).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { afterAll, describe, expect, it } from "vitest";
import { buildLspAttackRegistry } from "./__fixtures__/lsp-registry.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-lsp-race-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));
const SECRET = "RACED-SECRET-7007";
const ROUNDS = Number(process.env.ATTACK_ROUNDS ?? 40);

describe("the LSP read guard against a symlink swapped under it", () => {
  it("never shows the denied value", async () => {
    const workdir = path.join(temporary, "work");
    fs.mkdirSync(path.join(workdir, "secret"), { recursive: true });
    fs.writeFileSync(
      path.join(workdir, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { strict: true, target: "ES2022", module: "ESNext", moduleResolution: "Bundler" }, include: ["*.ts"] }),
    );
    fs.writeFileSync(path.join(workdir, "secret", "key.ts"), `export const KEY = "${SECRET}";\n`);
    fs.writeFileSync(path.join(workdir, "flip.ts"), 'export const KEY = "decoy";\n');
    fs.writeFileSync(path.join(workdir, "via.ts"), 'import { KEY } from "./flip";\nexport const copy = KEY;\n');
    const registry = await buildLspAttackRegistry(workdir, temporary);
    // What the model's Bash would run in the background: swap flip.ts by atomic renames, forever.
    const swapper = spawn(
      "python3",
      [
        "-c",
        `import os, time
os.chdir(${JSON.stringify(workdir)})
i = 0
while True:
    i += 1
    os.symlink("secret/key.ts", ".l%d" % i)
    os.rename(".l%d" % i, "flip.ts")
    with open(".r%d" % i, "w") as f:
        f.write('export const KEY = "decoy%d";\\n' % i)
    os.rename(".r%d" % i, "flip.ts")
    time.sleep(0.002)
`,
      ],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    let leaked = "";
    try {
      for (let round = 0; round < ROUNDS && leaked === ""; round += 1) {
        const result = await registry.executeToolCall({ id: `h${round}`, name: "LSP", arguments: { action: "hover", path: "via.ts", line: 1, character: 10 } });
        const text = toolResultText(result, "");
        if (text.includes(SECRET)) leaked = `round ${round}: ${text}`;
      }
    } finally {
      swapper.kill("SIGKILL");
      await registry.close();
    }
    expect(leaked).toBe("");
  }, 120_000);
});
