// The registry the AI SDK matrix scenarios (ai-sdk-scenarios.ts) run against.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { ToolError } from "../../errors.js";
import { type ToolRegistry, createToolRegistry } from "../../registry/create-tool-registry.js";
import { defineTool } from "../../registry/define-tool.js";

/** A 1x1 PNG, base64. */
export const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const metadata = { groupId: "system", kind: "custom", isReadOnly: true, displayCategory: "other" } as const;

/** A registry with the matrix tools, and what they counted. */
export interface Fixture {
  registry: ToolRegistry;
  counts: { deploy: number; onAsk: number };
  close(): Promise<void>;
}

/** Tools: Add, Lookup (fails), Snapshot (an image), Deploy (policy `ask`; onAsk approves), Build (streams two deltas). */
export async function createFixture(): Promise<Fixture> {
  const workdir = await mkdtemp(path.join(os.tmpdir(), "agent-tools-ai-sdk-matrix-"));
  const counts = { deploy: 0, onAsk: 0 };
  const tools = [
    defineTool({
      name: "Add",
      description: "Adds two integers.",
      inputSchema: z.object({ a: z.number().int(), b: z.number().int() }),
      metadata,
      execute: ({ a, b }) => ({ content: `${a} + ${b} = ${a + b}` }),
    }),
    defineTool({
      name: "Lookup",
      description: "Finds a record.",
      inputSchema: z.object({ key: z.string() }),
      metadata,
      execute: ({ key }) => {
        throw new ToolError("not_found", `No record named ${key}.`);
      },
    }),
    defineTool({
      name: "Snapshot",
      description: "Takes a screenshot.",
      inputSchema: z.object({}),
      metadata,
      execute: () => ({
        content: [
          { type: "text" as const, text: "shot.png" },
          { type: "image" as const, data: PNG, mimeType: "image/png" },
        ],
      }),
    }),
    defineTool({
      name: "Deploy",
      description: "Deploys the site.",
      inputSchema: z.object({ target: z.string() }),
      metadata: { ...metadata, isReadOnly: false },
      execute: ({ target }) => {
        counts.deploy += 1;
        return { content: `Deployed to ${target}.` };
      },
    }),
    defineTool({
      name: "Build",
      description: "Builds the project, streaming its log.",
      inputSchema: z.object({}),
      metadata,
      execute: async (_input, context) => {
        for (const line of ["compiling\n", "linking\n"]) {
          context.onUpdate({ text: line, stream: "stdout" });
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        return { content: "Build succeeded." };
      },
    }),
  ];
  const registry = createToolRegistry({
    workdir,
    dataDir: path.join(workdir, ".data"),
    bundles: [{ id: "matrix", trusted: true, listTools: () => tools }],
    approval: {
      policies: { Deploy: "ask" },
      onAsk: () => {
        counts.onAsk += 1;
        return true;
      },
    },
  });
  return {
    registry,
    counts,
    close: async () => {
      await registry.close();
      await rm(workdir, { recursive: true, force: true });
    },
  };
}
