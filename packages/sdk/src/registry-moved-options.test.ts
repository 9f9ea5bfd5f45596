import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SdkError } from "@agent-tools/core";
import { afterAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const workdir = mkdtempSync(path.join(tmpdir(), "agent-tools-moved-options-"));
afterAll(() => rmSync(workdir, { recursive: true, force: true }));

describe("buildBuiltinToolRegistry: options that moved into their feature's object", () => {
  it("refuses a top-level providerId and names shell.providerId", async () => {
    const options = { workdir, dataDir: path.join(workdir, "data"), providerId: "codex" } as unknown as Parameters<typeof buildBuiltinToolRegistry>[0];
    const error = await buildBuiltinToolRegistry(options).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).message).toContain("moved to shell.providerId");
    expect((error as SdkError).details).toMatchObject({ option: "providerId", suggestion: "shell.providerId" });
  });

  it("refuses a top-level planMode and checkpoint, naming interaction.planMode and checkpoints.id", async () => {
    for (const [key, value, target] of [
      ["planMode", true, "interaction.planMode"],
      ["checkpoint", { id: "c:1" }, "checkpoints.id"],
    ] as const) {
      const options = { workdir, dataDir: path.join(workdir, "data"), [key]: value } as unknown as Parameters<typeof buildBuiltinToolRegistry>[0];
      await expect(buildBuiltinToolRegistry(options)).rejects.toMatchObject({ code: "invalid_options", details: { option: key, suggestion: target } });
    }
  });

  it("takes shell.providerId: codex's 30 s synchronous Bash table in the cron scope", async () => {
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir: path.join(workdir, "data"), runtimeScope: "cron", shell: { providerId: "codex" } });
    const bash = registry.tools.find((tool) => tool.name === "Bash");
    expect(bash?.description).toContain("default 30000, at most 30000");
    await registry.close();
  });
});
