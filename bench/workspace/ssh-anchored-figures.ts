/**
 * The SSH workspace's file tools with the anchored helper (default) and
 * with SFTP by path (`anchoredOpens: false`), side by side:
 *
 *   npx tsx --conditions=@agent-tools/source bench/workspace/ssh-anchored-figures.ts [--runs=N]
 *
 * The test sshd of `@agent-tools/ssh/testing` on 127.0.0.1 (run as root),
 * one registry per side on `createSshWorkspace`, the tools called through
 * `executeToolCall`: Read of a 5 KB file, Read's first page of a 0.8 MB
 * file, Edit of one line (after an untimed Read), Write of a new 5 KB
 * file. Also the cost of one exec channel running `/usr/bin/perl -e 1`
 * (what a helper started per operation would add to each call). Medians of
 * N runs (default 15), the sides taking turns; nothing is asserted.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Workspace } from "@agent-tools/core/workspace";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { createSshWorkspace } from "@agent-tools/ssh";
import { startTestSshd } from "@agent-tools/ssh/testing";

const runs = Number(process.argv.find((argument) => argument.startsWith("--runs="))?.slice(7) ?? 15);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function time(body: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await body();
  return performance.now() - started;
}

const sshd = await startTestSshd();
const dataDir = mkdtempSync(path.join(os.tmpdir(), "agent-tools-bench-anchored-"));
try {
  const sides: Array<{ name: string; workspace: Workspace; registry: Awaited<ReturnType<typeof buildBuiltinToolRegistry>> }> = [];
  for (const anchored of [true, false]) {
    const workspace = await createSshWorkspace({ ...sshd.connectOptions, anchoredOpens: anchored });
    const registry = await buildBuiltinToolRegistry({ workspace, workdir: workspace.root, dataDir: path.join(dataDir, String(anchored)), memory: false });
    sides.push({ name: anchored ? "anchored helper" : "SFTP by path", workspace, registry });
  }
  const root = sides[0]?.workspace.root as string;
  const line = (index: number) => `export const value${index} = ${index} * 2; // a line of a source file\n`;
  const small = Array.from({ length: 100 }, (_, index) => line(index)).join("");
  const large = Array.from({ length: 14_000 }, (_, index) => line(index)).join("");
  await sides[0]?.workspace.fs.writeFileAtomic(`${root}/small.ts`, Buffer.from(small));
  await sides[0]?.workspace.fs.writeFileAtomic(`${root}/large.ts`, Buffer.from(large));
  console.log(
    `small.ts ${small.length} bytes, large.ts ${large.length} bytes; Node ${process.version}, load ${os.loadavg()[0]?.toFixed(1)}, median of ${runs}\n`,
  );
  const figures: Record<string, Record<string, number[]>> = {};
  const record = (figure: string, side: string, ms: number) => {
    figures[figure] ??= {};
    (figures[figure][side] ??= []).push(ms);
  };
  let counter = 0;
  for (let run = 0; run <= runs; run += 1) {
    const order = run % 2 === 0 ? sides : [...sides].reverse();
    for (const { name, registry } of order) {
      const call = (tool: string, args: Record<string, unknown>) => registry.executeToolCall({ id: `c${++counter}`, name: tool, arguments: args });
      const read5 = await time(() => call("Read", { path: "small.ts" }));
      const read800 = await time(() => call("Read", { path: "large.ts" }));
      await call("Read", { path: "small.ts" });
      const from = run % 2 === 0 ? "value7 = 7 * 2" : "value7 = 7 * 3";
      const to = run % 2 === 0 ? "value7 = 7 * 3" : "value7 = 7 * 2";
      // Both sides edit the same file: the second side of a run finds it already changed, so it edits back.
      const edit = await time(async () => {
        const first = await call("Edit", { path: "small.ts", old_string: from, new_string: to });
        if (first.isError) await call("Edit", { path: "small.ts", old_string: to, new_string: from });
      });
      const write = await time(() => call("Write", { path: `w-${name.split(" ")[0]}-${run}.ts`, content: small }));
      if (run === 0) continue; // warm-up
      record("Read 5 KB", name, read5);
      record("Read 0.8 MB (first page)", name, read800);
      record("Edit one line", name, edit);
      record("Write 5 KB (new file)", name, write);
    }
    const processes = sides[0]?.workspace.processes;
    if (processes && run > 0) {
      record(
        "exec /usr/bin/perl -e 1",
        "one exec channel",
        await time(async () => {
          const child = processes.spawn({ command: "/usr/bin/perl", args: ["-e", "1"], cwd: root });
          await child.exited;
        }),
      );
    }
  }
  for (const [figure, bySide] of Object.entries(figures)) {
    console.log(
      `${figure.padEnd(28)} ${Object.entries(bySide)
        .map(([side, values]) => `${side} ${median(values).toFixed(1).padStart(7)} ms`)
        .join(" | ")}`,
    );
  }
  for (const { registry, workspace } of sides) {
    await registry.close();
    await workspace.close();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
  await sshd.stop();
}
