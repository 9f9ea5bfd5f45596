/**
 * Attacks on Edit's multi-edit form through `executeToolCall`: generated
 * edits (seeded) on small files with repeated words, CRLF, tabs, trailing
 * spaces and a BOM, compared with the same edits sent one by one as single
 * Edit calls. A multi-edit that succeeds must leave exactly what the single
 * calls leave (in order, each on the result of the previous), and one that
 * fails must leave the file untouched: never a change at another place, a
 * lost line ending or half the edits.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-multi-edit-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const ROUNDS = Number(process.env.ATTACK_ROUNDS ?? 40) * 10;

describe("Edit's edits against the same edits one by one", () => {
  it(`${ROUNDS} generated cases: equal results, or refused with the file untouched`, async () => {
    const workdir = path.join(temporary, "work");
    fs.mkdirSync(workdir);
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir: path.join(temporary, "data"), memory: false });
    let seed = 37;
    const next = (limit: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % limit;
    };
    const words = ["alpha", "beta", "gamma", "alpha beta", "  beta", "\tgamma", "delta  ", "“q”", "x"];
    const mismatches: string[] = [];
    let applied = 0;
    try {
      for (let round = 0; round < ROUNDS; round += 1) {
        const eol = next(3) === 0 ? "\r\n" : "\n";
        const lines = Array.from({ length: 3 + next(6) }, () => words[next(words.length)]!);
        const original = `${next(5) === 0 ? "\ufeff" : ""}${lines.join(eol)}${next(2) === 0 ? eol : ""}`;
        const pick = () => {
          const from = words[next(words.length)]!;
          const olds = [from, from.trim(), `${from}${eol}${words[next(words.length)]!}`, from.slice(0, 3), `${from}\n`];
          return olds[next(olds.length)]!;
        };
        const edits = Array.from({ length: 1 + next(3) }, () => ({
          old_string: pick(),
          new_string: ["", "Z", "alpha", "beta\ngamma", "  x"][next(5)]!,
          ...(next(4) === 0 ? { replace_all: true } : {}),
        })).filter((edit) => edit.old_string !== "");
        if (edits.length === 0) continue;
        const multiFile = path.join(workdir, `m${round}.txt`);
        const singleFile = path.join(workdir, `s${round}.txt`);
        fs.writeFileSync(multiFile, original);
        fs.writeFileSync(singleFile, original);
        const multi = await registry.executeToolCall({ id: `m${round}`, name: "Edit", arguments: { path: `m${round}.txt`, edits } });
        const after = fs.readFileSync(multiFile, "utf8");
        if (multi.isError) {
          if (after !== original) mismatches.push(`round ${round}: refused but changed ${JSON.stringify({ original, edits, after })}`);
          continue;
        }
        let singlesOk = true;
        for (const [index, edit] of edits.entries()) {
          const single = await registry.executeToolCall({ id: `s${round}-${index}`, name: "Edit", arguments: { path: `s${round}.txt`, ...edit } });
          if (single.isError) {
            singlesOk = false;
            break;
          }
        }
        // The multi form may refuse what the singles do (overlap), never apply something the singles cannot.
        if (!singlesOk) {
          mismatches.push(`round ${round}: multi applied, singles refused ${JSON.stringify({ original, edits, after, text: toolResultText(multi, "") })}`);
          continue;
        }
        applied += 1;
        const expected = fs.readFileSync(singleFile, "utf8");
        if (after !== expected) mismatches.push(`round ${round}: ${JSON.stringify({ original, edits, multi: after, singles: expected })}`);
      }
    } finally {
      await registry.close();
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
    expect(applied).toBeGreaterThan(0);
  }, 120_000);
});
