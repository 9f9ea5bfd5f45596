import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { FileChangeRequest, FileCheckpointRecorder } from "../ports/file-checkpoints.js";
import { defineTool } from "./define-tool.js";
import { createToolRegistry } from "./create-tool-registry.js";

const Probe = defineTool({
  name: "Probe",
  description: "Reports the checkpoint and recorder it sees.",
  inputSchema: z.object({}),
  metadata: { groupId: "fs", kind: "read", isReadOnly: true, displayCategory: "file" },
  execute: (_input, context) => ({
    content: "ok",
    details: { checkpointId: context.checkpointId ?? null, hasRecorder: context.ports.fileCheckpoints !== undefined },
  }),
});

const recorder: FileCheckpointRecorder = {
  beforeChange: async (_request: FileChangeRequest) => undefined,
  afterChange: async (_request: FileChangeRequest) => undefined,
};

describe("checkpointId in the tool context", () => {
  let workdir: string;
  beforeEach(() => {
    workdir = mkdtempSync(path.join(os.tmpdir(), "agent-tools-checkpoint-context-"));
  });
  afterEach(() => rmSync(workdir, { recursive: true, force: true }));

  it("is absent without a checkpoint, the registry's by default, and a call's own when given", async () => {
    const plain = createToolRegistry({ workdir, bundles: [{ id: "p", trusted: true, listTools: () => [Probe] }] });
    expect((await plain.executeToolCall({ id: "1", name: "Probe", arguments: {} })).details).toEqual({ checkpointId: null, hasRecorder: false });
    expect((await plain.executeToolCall({ id: "2", name: "Probe", arguments: {} }, { checkpointId: "turn-9" })).details).toEqual({
      checkpointId: "turn-9",
      hasRecorder: false,
    });

    const registry = createToolRegistry({
      workdir,
      bundles: [{ id: "p", trusted: true, listTools: () => [Probe] }],
      checkpoint: { id: "conversation:1" },
      ports: { fileCheckpoints: recorder },
    });
    expect(registry.ports.fileCheckpoints).toBe(recorder);
    expect((await registry.executeToolCall({ id: "3", name: "Probe", arguments: {} })).details).toEqual({
      checkpointId: "conversation:1",
      hasRecorder: true,
    });
    expect((await registry.executeToolCall({ id: "4", name: "Probe", arguments: {} }, { checkpointId: "conversation:2" })).details).toEqual({
      checkpointId: "conversation:2",
      hasRecorder: true,
    });
  });
});
