/**
 * Attacks on Grep and Glob as ripgrep runs them through the ProgramRunner
 * port (`NodeProgramRunner` of `@agent-tools/node`), played by a model
 * calling `executeToolCall` on a registry from `buildBuiltinToolRegistry`:
 *
 * - arguments that look like ripgrep flags (`--pre=./evil.sh`, `--files`,
 *   `-e`, a `file_pattern` of `--pre-glob=*`) are searched for, never passed
 *   as flags: the script they name never runs;
 * - a `.ripgreprc` the model wrote, named by `RIPGREP_CONFIG_PATH` in the
 *   host's environment (which ripgrep inherits), is ignored (`--no-config`);
 * - a pattern matching every line of 40 MB answers with a bounded page;
 * - a search path swapped for a symlink to an outside folder or file while
 *   Grep runs (`ATTACK_ROUNDS` rounds) must never show the outside content.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";

const ROUNDS = Math.max(1, Number(process.env.ATTACK_ROUNDS ?? 150));
const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-ripgrep-port-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

type Registry = Awaited<ReturnType<typeof buildBuiltinToolRegistry>>;

async function scene(name: string) {
  const root = path.join(temporary, name);
  const workdir = path.join(root, "work");
  const outside = path.join(root, "outside");
  fs.mkdirSync(workdir, { recursive: true });
  fs.mkdirSync(outside, { recursive: true });
  const registry = await buildBuiltinToolRegistry({ workdir, dataDir: path.join(root, "data"), memory: false });
  return { root, workdir, outside, registry };
}

async function call(registry: Registry, name: string, args: Record<string, unknown>) {
  const result = await registry.executeToolCall({ id: `${name}-${Math.random()}`, name, arguments: args });
  return { isError: result.isError === true, text: toolResultText(result, ""), details: result.details as Record<string, unknown> | undefined };
}

describe("attack: ripgrep flags smuggled in Grep and Glob arguments", () => {
  it("searches for flag-like patterns, globs and paths and never runs the --pre script", async () => {
    const { workdir, registry } = await scene("flags");
    const marker = path.join(workdir, "PRE-RAN");
    try {
      fs.writeFileSync(path.join(workdir, "evil.sh"), `#!/bin/sh\ntouch ${JSON.stringify(marker)}\ncat "$1"\n`, { mode: 0o755 });
      fs.writeFileSync(path.join(workdir, "notes.txt"), "a line with --pre=./evil.sh in it\nand -e too\n");
      const engine = (await call(registry, "Grep", { pattern: "notes" })).details?.engine;
      expect(engine).toBe("ripgrep");
      for (const pattern of ["--pre=./evil.sh", "--pre", "-e", "--files", "--pre-glob=*"]) {
        const grep = await call(registry, "Grep", { pattern, output_mode: "files" });
        expect(grep.isError, grep.text).toBe(false);
      }
      const literal = await call(registry, "Grep", { pattern: "--pre=./evil.sh", output_mode: "content" });
      expect(literal.text).toContain("notes.txt");
      for (const file_pattern of ["--pre=./evil.sh", "--pre-glob=*", "-u", "include:sh", "*.txt,--pre=./evil.sh"]) {
        await call(registry, "Grep", { pattern: "line", file_pattern, output_mode: "content" });
        await call(registry, "Glob", { pattern: file_pattern });
      }
      for (const searchPath of ["--files", "--pre=./evil.sh", "-"]) {
        const grep = await call(registry, "Grep", { pattern: "line", path: searchPath });
        expect(grep.isError).toBe(true);
      }
      expect(fs.existsSync(marker)).toBe(false);
    } finally {
      await registry.close();
    }
  });

  it("ignores a .ripgreprc the model wrote, even when the host's RIPGREP_CONFIG_PATH names it", async () => {
    const { workdir, registry } = await scene("config");
    const marker = path.join(workdir, "PRE-RAN");
    const saved = process.env.RIPGREP_CONFIG_PATH;
    try {
      fs.writeFileSync(path.join(workdir, "evil.sh"), `#!/bin/sh\ntouch ${JSON.stringify(marker)}\nprintf 'inj%s\\n' ected-by-pre\n`, { mode: 0o755 });
      fs.writeFileSync(path.join(workdir, ".ripgreprc"), `--pre=${path.join(workdir, "evil.sh")}\n--no-ignore\n`);
      fs.writeFileSync(path.join(workdir, "a.txt"), "plain text\n");
      process.env.RIPGREP_CONFIG_PATH = path.join(workdir, ".ripgreprc");
      const grep = await call(registry, "Grep", { pattern: "injected|plain", output_mode: "content" });
      expect(grep.details?.engine).toBe("ripgrep");
      expect(grep.text).toContain("plain text");
      expect(grep.text).not.toContain("injected-by-pre");
      expect(fs.existsSync(marker)).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.RIPGREP_CONFIG_PATH;
      else process.env.RIPGREP_CONFIG_PATH = saved;
      await registry.close();
    }
  });
});

describe("attack: ripgrep output floods", () => {
  it("answers a pattern matching every line of 40 MB with one bounded page", async () => {
    const { workdir, registry } = await scene("flood");
    try {
      const block = "x".repeat(99).concat("\n").repeat(10_000);
      for (let index = 0; index < 40; index += 1) fs.writeFileSync(path.join(workdir, `f${index}.txt`), block);
      for (const output_mode of ["content", "count", "files"]) {
        const grep = await call(registry, "Grep", { pattern: ".", output_mode });
        expect(grep.isError, grep.text.slice(0, 300)).toBe(false);
        expect(grep.text.length).toBeLessThan(200_000);
      }
      const multiline = await call(registry, "Grep", { pattern: "(?s).*", multiline: true, output_mode: "content" });
      expect(multiline.text.length).toBeLessThan(200_000);
    } finally {
      await registry.close();
    }
  });
});

/** A loop (as the model's own Bash could run it in the background) flipping `entry` between a plain file or folder and a symlink to `target`. */
function flipper(entry: string, target: string, kind: "file" | "dir", seconds: number) {
  const q = (name: string) => `'${path.join(path.dirname(entry), name)}'`;
  const base = path.basename(entry);
  const [link, plain, old] = [q(`.l-${base}`), q(`.p-${base}`), q(`.o-${base}`)];
  const swap =
    kind === "file"
      ? [`ln -sfn '${target}' ${link} && mv -T ${link} '${entry}'`, `printf 'inside\\n' > ${plain} && mv -T ${plain} '${entry}'`]
      : [`mv -T '${entry}' ${old} && ln -s '${target}' '${entry}'`, `rm -f '${entry}' && mv -T ${old} '${entry}'`];
  const script = [
    `end=$(( $(date +%s) + ${seconds} ))`,
    `while [ "$(date +%s)" -lt "$end" ]; do`,
    "  for i in 1 2 3 4 5 6 7 8 9 10; do",
    `    ${swap[0]}`,
    `    ${swap[1]}`,
    "  done",
    "done",
  ].join("\n");
  const child = spawn("sh", ["-c", script], { stdio: "ignore" });
  const done = new Promise<void>((resolve) => child.on("close", () => resolve()));
  return {
    stop: async () => {
      child.kill("SIGKILL");
      await done;
    },
  };
}

describe("attack: the search path swapped for a symlink to an outside secret while Grep runs", () => {
  const cases = [
    // Was a hole: Grep read the file by name again after the path check (readFile), following a symlink swapped in.
    // Now it opens the file through its pinned directory, as Read does, and refuses a swapped-in symlink.
    { label: "a file (the TypeScript single-file read)", kind: "file" as const, open: false },
    // Open hole: ripgrep is started in the folder by name (its cwd), following a symlink swapped in after the
    // check; ripgrep's own walk is path-based too. While it is open the loop ends at the first leak; up to
    // 8x ATTACK_ROUNDS rounds make that reliable.
    { label: "a folder (ripgrep's working directory)", kind: "dir" as const, open: true },
  ];
  for (const { label, kind, open } of cases) {
    (open ? it.fails : it)(`never shows the outside content: ${label} (${ROUNDS * 8} rounds)`, async () => {
      const { workdir, outside, registry } = await scene(`swap-${kind}`);
      const secret = path.join(outside, "secret.txt");
      fs.writeFileSync(secret, "TOP-SECRET-OUTSIDE\n");
      const entry = path.join(workdir, kind === "file" ? "a.txt" : "sub");
      if (kind === "file") fs.writeFileSync(entry, "inside\n");
      else {
        fs.mkdirSync(entry);
        fs.writeFileSync(path.join(entry, "in.txt"), "inside\n");
      }
      const flip = flipper(entry, kind === "file" ? secret : outside, kind, Math.max(10, Math.ceil(ROUNDS / 10)));
      const leaks: string[] = [];
      try {
        for (let round = 0; round < ROUNDS * 8 && leaks.length === 0; round += 1) {
          const grep = await call(registry, "Grep", { pattern: "SECRET|inside", path: path.basename(entry), output_mode: "content" });
          if (grep.text.includes("TOP-SECRET")) leaks.push(grep.text.slice(0, 200));
        }
      } finally {
        await flip.stop();
        await registry.close();
      }
      expect(leaks).toEqual([]);
    });
  }
});
