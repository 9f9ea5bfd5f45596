import { SdkError, type ToolBundle, type ToolPlugin, type ToolPluginHost, defineTool } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DEFAULT_EDIT_SURFACE_BY_MODEL, type EditSurfaceOptions, editSurfaceForModel, resolveEditSurface, withEditSurface } from "./edit-surface.js";

/** The SdkError `resolveEditSurface(options)` throws (fails the test when it returns). */
function rejection(options: Record<string, unknown>): SdkError {
  let thrown: unknown;
  try {
    resolveEditSurface(options as EditSurfaceOptions);
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `${JSON.stringify(options)} was accepted`).toBeInstanceOf(SdkError);
  expect((thrown as SdkError).code).toBe("invalid_options");
  return thrown as SdkError;
}

describe("editSurfaceForModel: the documented table", () => {
  it.each([
    ["gpt-5", "apply_patch"],
    ["gpt-5-codex", "apply_patch"],
    ["gpt-5.1-codex-mini", "apply_patch"],
    ["codex-mini-latest", "apply_patch"],
    ["gpt-5-mini", "apply_patch"],
    ["gpt-5.1", "apply_patch"],
    ["gpt-5.2-2025-12-11", "apply_patch"],
    ["GPT-5", "apply_patch"],
    ["openai:gpt-5", "apply_patch"],
    ["openai/gpt-5.1-codex", "apply_patch"],
    ["azure:gpt-6", "apply_patch"],
    ["claude-sonnet-4-5", "edit"],
    ["anthropic:claude-opus-4-1", "edit"],
    ["gemini-2.5-pro", "edit"],
    ["gpt-4.1", "edit"],
    ["gpt-4o-mini", "edit"],
    ["openai:gpt-4o", "edit"],
    ["gpt-oss-120b", "edit"],
    ["o3", "edit"],
    ["o4-mini", "edit"],
    ["my-gpt-5-clone", "edit"],
    ["deepseek-chat", "edit"],
    ["", "edit"],
  ])("%s -> %s", (model, surface) => {
    expect(editSurfaceForModel(model)).toBe(surface);
  });

  it("gives edit without a model", () => {
    expect(editSurfaceForModel(undefined)).toBe("edit");
    expect(resolveEditSurface({})).toBe("edit");
    expect(resolveEditSurface({ editSurface: "auto" })).toBe("edit");
  });

  it("is frozen, so a host cannot change every registry's table", () => {
    expect(Object.isFrozen(DEFAULT_EDIT_SURFACE_BY_MODEL)).toBe(true);
    expect(() => (DEFAULT_EDIT_SURFACE_BY_MODEL as unknown as unknown[]).push({ model: "x", surface: "edit" })).toThrow(TypeError);
  });
});

describe("editSurfaceByModel: the host's entries come first", () => {
  it("overrides the table by prefix at a word boundary, case-insensitively, behind a provider prefix", () => {
    const rules = [{ model: "GPT-5-mini", surface: "edit" as const }];
    expect(editSurfaceForModel("gpt-5-mini", rules)).toBe("edit");
    expect(editSurfaceForModel("gpt-5-mini-2025-08-07", rules)).toBe("edit");
    expect(editSurfaceForModel("openai:gpt-5-mini", rules)).toBe("edit");
    expect(editSurfaceForModel("openrouter/openai/gpt-5-mini", rules)).toBe("edit");
    expect(editSurfaceForModel("gpt-5-minimal", rules)).toBe("apply_patch"); // not the same word: the table decides
    expect(editSurfaceForModel("gpt-5", rules)).toBe("apply_patch");
  });

  it("gives a model outside the table another surface, and the first matching entry wins", () => {
    const rules = [
      { model: /^claude-opus/, surface: "apply_patch" as const },
      { model: "claude", surface: "both" as const },
    ];
    expect(editSurfaceForModel("claude-opus-4-1", rules)).toBe("apply_patch");
    expect(editSurfaceForModel("claude-sonnet-4-5", rules)).toBe("both");
    expect(editSurfaceForModel("gemini-2.5-pro", rules)).toBe("edit");
  });

  it("answers the same on every call with a global RegExp", () => {
    const rules = [{ model: /gemini/g, surface: "both" as const }];
    const answers = [1, 2, 3, 4].map(() => editSurfaceForModel("gemini-2.5-pro", rules));
    expect(answers).toEqual(["both", "both", "both", "both"]);
  });

  it("is read only by auto: an explicit editSurface wins", () => {
    const editSurfaceByModel = [{ model: "gpt-5", surface: "both" as const }];
    expect(resolveEditSurface({ modelId: "gpt-5", editSurfaceByModel })).toBe("both");
    expect(resolveEditSurface({ modelId: "gpt-5", editSurfaceByModel, editSurface: "edit" })).toBe("edit");
    expect(resolveEditSurface({ modelId: "claude-sonnet-4-5", editSurface: "apply_patch" })).toBe("apply_patch");
    expect(resolveEditSurface({ modelId: "gpt-5", editSurface: "both" })).toBe("both");
  });
});

describe("resolveEditSurface: fail closed", () => {
  it("names an unknown editSurface with the closest value", () => {
    for (const [value, suggestion] of [
      ["apply-patch", "apply_patch"],
      ["applypatch", "apply_patch"],
      ["Edit", "edit"],
      ["bth", "both"],
    ] as const) {
      const error = rejection({ editSurface: value });
      expect(error.message).toContain(`editSurface must be one of "auto", "apply_patch", "edit", "both", not "${value}": did you mean "${suggestion}"?`);
      expect(error.details).toEqual({ option: "editSurface", suggestion });
    }
    expect(rejection({ editSurface: "patch-everything" }).details).toEqual({ option: "editSurface" });
    expect(rejection({ editSurface: true }).message).toContain("not true");
  });

  it("refuses a modelId that is not a string, and says to pass a ModelClient's id", () => {
    expect(rejection({ modelId: 5 }).details).toEqual({ option: "modelId" });
    const client = rejection({ modelId: { id: "openai:gpt-5", generate: () => undefined } });
    expect(client.message).toMatch(/modelId must be a string.*pass its id: modelId: model\.id/);
  });

  it("refuses a malformed editSurfaceByModel, naming the entry", () => {
    expect(rejection({ editSurfaceByModel: { model: "gpt-5", surface: "edit" } }).details).toEqual({ option: "editSurfaceByModel" });
    expect(rejection({ editSurfaceByModel: ["gpt-5"] }).details).toEqual({ option: "editSurfaceByModel[0]" });
    const surface = rejection({
      editSurfaceByModel: [
        { model: "a", surface: "edit" },
        { model: "gpt-5", surface: "apply-patch" },
      ],
    });
    expect(surface.message).toContain(
      'editSurfaceByModel[1].surface must be one of "apply_patch", "edit", "both", not "apply-patch": did you mean "apply_patch"?',
    );
    expect(surface.details).toEqual({ option: "editSurfaceByModel[1].surface", suggestion: "apply_patch" });
    expect(rejection({ editSurfaceByModel: [{ model: "gpt-5", surface: "auto" }] }).details).toEqual({ option: "editSurfaceByModel[0].surface" });
    expect(rejection({ editSurfaceByModel: [{ model: "", surface: "edit" }] }).details).toEqual({ option: "editSurfaceByModel[0].model" });
    expect(rejection({ editSurfaceByModel: [{ model: 5, surface: "edit" }] }).details).toEqual({ option: "editSurfaceByModel[0].model" });
    const key = rejection({ editSurfaceByModel: [{ modle: "gpt-5", surface: "edit" }] });
    expect(key.details).toEqual({ option: "editSurfaceByModel[0].modle", suggestion: "editSurfaceByModel[0].model" });
  });
});

describe("withEditSurface", () => {
  const tool = (name: string) => defineTool({ name, description: `${name}.`, inputSchema: z.object({}), execute: () => ({ content: name }) });
  const tools = ["Read", "Write", "Edit", "ApplyPatch", "Delete"].map(tool);
  let closed = 0;
  const bundle: ToolBundle = {
    id: "fs",
    trusted: true,
    listTools: () => tools,
    close: async () => {
      closed += 1;
    },
  };
  const plugin: ToolPlugin = { id: "fs", scopes: ["chat", "cron"], child: "inherit", create: () => bundle };
  const listed = async (surface: "apply_patch" | "edit" | "both") => {
    const output = await withEditSurface(plugin, surface).create({} as ToolPluginHost);
    return (output as ToolBundle).listTools().map((entry) => entry.name);
  };

  it("leaves out the edit tool the surface does not list, keeps Write and the plugin's description", async () => {
    expect(await listed("apply_patch")).toEqual(["Read", "Write", "ApplyPatch", "Delete"]);
    expect(await listed("edit")).toEqual(["Read", "Write", "Edit", "Delete"]);
    expect(await listed("both")).toEqual(["Read", "Write", "Edit", "ApplyPatch", "Delete"]);
    const wrapped = withEditSurface(plugin, "edit");
    expect({ id: wrapped.id, scopes: wrapped.scopes, child: wrapped.child }).toEqual({ id: "fs", scopes: ["chat", "cron"], child: "inherit" });
  });

  it("answers one array per source array, and closes the wrapped bundle", async () => {
    const output = (await withEditSurface(plugin, "edit").create({} as ToolPluginHost)) as ToolBundle;
    expect(output.listTools()).toBe(output.listTools());
    await output.close?.();
    expect(closed).toBe(1);
  });

  it("filters every bundle of a plugin that makes several, and its read-only child", async () => {
    const several: ToolPlugin = {
      id: "several",
      scopes: ["chat"],
      child: "readonly",
      readonlyChild: () => ({ id: "several-ro", scopes: ["chat"], child: "omit", create: () => [bundle] }),
      create: () => [bundle, { ...bundle, id: "second" }],
    };
    const wrapped = withEditSurface(several, "apply_patch");
    const output = (await wrapped.create({} as ToolPluginHost)) as ToolBundle[];
    expect(output.map((entry) => [entry.id, entry.listTools().some((listedTool) => listedTool.name === "Edit")])).toEqual([
      ["fs", false],
      ["second", false],
    ]);
    const child = (await wrapped.readonlyChild!().create({} as ToolPluginHost)) as ToolBundle[];
    expect(child[0]!.listTools().map((entry) => entry.name)).not.toContain("Edit");
  });
});
