import os from "node:os";
import path from "node:path";
import { SdkError, defineTool, resolveDataDir } from "@agent-tools/core";
import { ScriptedProcessRunner } from "@agent-tools/core/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import { createNodePorts } from "./create-node-ports.js";
import { createToolRegistry } from "./create-tool-registry.js";

describe("createNodePorts", () => {
  it("creates the Node adapters on first use, once", async () => {
    const ports = createNodePorts();
    expect(ports.processRunner).toBe(ports.processRunner);
    expect(ports.processRunner.constructor.name).toBe("ExecaProcessRunner");
    expect(ports.gitClient).toBe(ports.gitClient);
    expect(ports.gitClient.constructor.name).toBe("GitCliClient");
    expect(await ports.gitClient.repositoryRoot(os.tmpdir())).toBeNull();
    expect(ports.modelClient).toBeUndefined();
    await ports.close();
    await ports.close();
  });

  it("uses the host's ports as given", () => {
    const processRunner = new ScriptedProcessRunner(() => undefined);
    const ports = createNodePorts({ ports: { processRunner } });
    expect(ports.processRunner).toBe(processRunner);
  });
});

describe("createToolRegistry of the sdk", () => {
  it("fills in the Node ports that core leaves to the host", async () => {
    const Probe = defineTool({
      name: "Probe",
      description: "Names the runner.",
      inputSchema: z.object({}),
      metadata: { groupId: "probe", kind: "read", isReadOnly: true, displayCategory: "other" },
      execute: (_input, context) => ({ content: [{ type: "text", text: context.ports.processRunner.constructor.name }] }),
    });
    const registry = createToolRegistry({ workdir: os.tmpdir(), bundles: [{ id: "p", trusted: true, listTools: () => [Probe] }] });
    const result = await registry.executeToolCall({ id: "1", name: "Probe", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "ExecaProcessRunner" }]);
    await registry.close();
  });

  it("runs the host's cleanups and refuses cleanups that are not an array", async () => {
    let cleaned = 0;
    const registry = createToolRegistry({ workdir: os.tmpdir(), bundles: [], cleanups: [() => void (cleaned += 1)] });
    await registry.close();
    expect(cleaned).toBe(1);
    expect(() => createToolRegistry({ workdir: os.tmpdir(), bundles: [], cleanups: "no" as never })).toThrow(SdkError);
  });
});

describe("dataDir", () => {
  it("means the same directory in the sdk and in core (~/ expands)", async () => {
    const registry = await buildBuiltinToolRegistry({ workdir: os.tmpdir(), dataDir: "~/.agent-tools-sdk-test", runtimeScope: "cron" });
    expect(registry.dataDir).toBe(path.join(os.homedir(), ".agent-tools-sdk-test"));
    expect(registry.dataDir).toBe(resolveDataDir("~/.agent-tools-sdk-test"));
    await registry.close();
  });
});
