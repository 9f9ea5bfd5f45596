/**
 * Results a tool can hand the ledger: megabytes of details, NUL characters and lone surrogates in its
 * text, an own `__proto__` member, values JSON writes otherwise (-0, NaN, undefined). On the real
 * SQLite and PostgreSQL stores a completed call must be answered after a restart exactly as JSON
 * carries it (or as the host first got it), never lost, never reported `outcome_unknown`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createToolRegistry, defineTool } from "@agent-tools/core";
import type { CallLedger } from "@agent-tools/core/durable";
import { KyselyCallLedger } from "@agent-tools/durable";
import { openPostgresStorage, openSqliteStorage } from "@agent-tools/storage";
import { usePostgresTestCluster } from "@agent-tools/storage/testing";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-durable-results-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));
const cluster = usePostgresTestCluster();
let postgresUrl: Promise<string> | undefined;

const BIG = 4 * 1024 * 1024;
const hostile = JSON.parse('{"__proto__":{"polluted":true},"x":1}') as Record<string, unknown>;

/** A tool whose answer depends on its `kind` argument. */
function resultTool(runs: string[]) {
  return defineTool({
    name: "Emit",
    description: "Emits a result.",
    inputSchema: z.object({ kind: z.string() }),
    effects: "unsafe",
    execute: ({ kind }) => {
      runs.push(kind);
      if (kind === "big") return { content: "big", details: { blob: "x".repeat(BIG) } };
      if (kind === "text") return { content: "nul:\u0000 lone:\ud800 emoji:\u{1F600} rtl:\u202E", details: { key: "\u0000\ud800" } };
      if (kind === "proto") return { content: "proto", details: { hostile } };
      return { content: "odd", details: { negativeZero: -0, nan: Number.NaN, missing: undefined, big: 1e308 * 10 } };
    },
  });
}

describe.each([
  ["SQLite", () => openSqliteStorage({ dataDir: path.join(temporary, "sqlite") })],
  ["PostgreSQL", async () => openPostgresStorage({ connectionString: await (postgresUrl ??= cluster().createDatabase("durable_results")) })],
] as const)("results on the %s ledger", (label, open) => {
  it.each(["big", "text", "proto", "odd"])(
    "a completed %s result is answered after a restart, as JSON carries it",
    async (kind) => {
      const runs: string[] = [];
      const tool = resultTool(runs);
      const call = { id: `c-${kind}`, name: "Emit", arguments: { kind } };
      const host = async (ledger: CallLedger) =>
        createToolRegistry({ workdir: temporary, ledger, bundles: [{ id: "t", trusted: true, listTools: () => [tool] }] }).executeToolCall(call, {
          durable: { runId: `run-${label}` },
        });
      const storageA = await open();
      const first = await host(await KyselyCallLedger.open(storageA));
      await storageA.close();
      const storageB = await open();
      try {
        const again = await host(await KyselyCallLedger.open(storageB));
        expect(runs).toEqual([kind]);
        expect(again.error?.code).toBeUndefined();
        expect(again).toEqual(JSON.parse(JSON.stringify(first)));
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        if (kind === "proto") expect(Object.getPrototypeOf((again.details as { hostile: object }).hostile)).toBe(Object.prototype);
      } finally {
        await storageB.close();
      }
    },
    120_000,
  );
});
