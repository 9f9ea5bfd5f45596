/**
 * The edit surface: which of the file tools' two ways to change a file a
 * registry lists, chosen per model. Models of the GPT-5 and Codex families
 * are trained to edit with `apply_patch` (ApplyPatch here); other models do
 * best with search-and-replace pairs (Edit). A registry lists one of them
 * unless the host asks for both, so a model never meets two tools that do
 * the same thing. Write is listed whatever the surface.
 */
import { SdkError, type ToolBundle, type ToolDefinition, type ToolPlugin, type ToolPluginOutput } from "@agent-tools/core";
import { closestName } from "@agent-tools/core/internal";
import { describeOptionValue, isOptionObject, rejectUnknownKeys } from "./option-keys.js";

/** Which edit tools are listed: `apply_patch` (ApplyPatch, not Edit), `edit` (Edit, not ApplyPatch) or `both`. */
export type EditSurface = "apply_patch" | "edit" | "both";

/** One entry of an edit-surface table: the models it covers and the surface they get. */
export interface EditSurfaceRule {
  /**
   * A string names a model or a family by prefix, case-insensitively: it
   * matches an id equal to it or continuing with `-`, `.`, `_`, `:` or `@`
   * (`"gpt-5"` matches `gpt-5`, `gpt-5-mini`, `gpt-5.1-codex`, not
   * `gpt-50`), with or without a provider prefix (`openai:gpt-5`,
   * `openrouter/openai/gpt-5`). A RegExp is tested against the whole id as
   * the host gave it (its `g` and `y` flags are ignored).
   */
  readonly model: string | RegExp;
  /** The surface the matching models get. */
  readonly surface: EditSurface;
}

/** The values of the `editSurface` option. */
const EDIT_SURFACE_OPTIONS = ["auto", "apply_patch", "edit", "both"] as const;
/** The surfaces a table entry may give. */
const EDIT_SURFACES: readonly EditSurface[] = ["apply_patch", "edit", "both"];
const RULE_KEYS = { model: true, surface: true } as const;

/**
 * The table `editSurface: "auto"` reads after the host's own entries
 * (`editSurfaceByModel`), first match wins; a model matching none, or no
 * `modelId` at all, gets `edit`. Codex models (any id containing `codex`:
 * `gpt-5-codex`, `gpt-5.1-codex-mini`, `codex-mini-latest`) and the GPT-5
 * family and its successors (`gpt-5`, `gpt-5-mini`, `gpt-5.1`, `gpt-5.2`, a
 * later `gpt-<N>` with N >= 5, also behind a provider prefix such as
 * `openai:` or `openai/`) get `apply_patch`; GPT-4.x, GPT-4o, gpt-oss, the
 * o-series and every other vendor's models get `edit`. See
 * docs/tools-fs.md, "Edit surface", for why.
 *
 * @example
 * editSurfaceForModel("gpt-5.1-codex-mini"); // "apply_patch", by the first entry
 */
export const DEFAULT_EDIT_SURFACE_BY_MODEL: readonly EditSurfaceRule[] = Object.freeze([
  Object.freeze({ model: /codex/i, surface: "apply_patch" as const }),
  Object.freeze({ model: /(?:^|[/:.])gpt-(?:[5-9]|[1-9]\d+)(?!\d)/i, surface: "apply_patch" as const }),
]);

/**
 * The surface a model gets: the first of `rules` (the host's, checked
 * first) and then {@link DEFAULT_EDIT_SURFACE_BY_MODEL} that matches
 * `modelId`; `edit` when none does or `modelId` is undefined or empty.
 * `rules` are not checked here (`buildBuiltinToolRegistry` checks its
 * options before it calls this).
 *
 * @example
 * editSurfaceForModel("gpt-5"); // "apply_patch"
 * editSurfaceForModel("claude-sonnet-4-5"); // "edit"
 * editSurfaceForModel("gpt-5", [{ model: "gpt-5", surface: "both" }]); // "both"
 */
export function editSurfaceForModel(modelId: string | undefined, rules: readonly EditSurfaceRule[] = []): EditSurface {
  if (modelId === undefined || modelId.trim() === "") return "edit";
  const names = modelNamesOf(modelId);
  for (const rule of [...rules, ...DEFAULT_EDIT_SURFACE_BY_MODEL]) {
    if (ruleMatches(rule.model, modelId, names)) return rule.surface;
  }
  return "edit";
}

/** The id lowercased, and without a provider prefix (after the last `/`, after the first `:`). */
function modelNamesOf(modelId: string): string[] {
  const id = modelId.trim().toLowerCase();
  const names = [id, id.slice(id.lastIndexOf("/") + 1)];
  const colon = id.indexOf(":");
  if (colon !== -1) names.push(id.slice(colon + 1));
  return [...new Set(names)];
}

function ruleMatches(model: string | RegExp, modelId: string, names: readonly string[]): boolean {
  if (model instanceof RegExp) {
    // A copy without g/y: a stateful pattern would answer differently on each call.
    return new RegExp(model.source, model.flags.replace(/[gy]/g, "")).test(modelId);
  }
  const wanted = model.trim().toLowerCase();
  return names.some((name) => name === wanted || (name.startsWith(wanted) && /^[-._:@]/.test(name.slice(wanted.length))));
}

/** The options of `buildBuiltinToolRegistry` that choose the edit surface. */
export interface EditSurfaceOptions {
  readonly editSurface?: "auto" | EditSurface;
  readonly modelId?: string;
  readonly editSurfaceByModel?: readonly EditSurfaceRule[];
}

/**
 * Checks the edit-surface options fail-closed and returns the surface they
 * choose: an unknown `editSurface`, a `modelId` that is not a string, or a
 * malformed `editSurfaceByModel` entry throws `SdkError` (`invalid_options`)
 * naming the option and, when one is close, the value meant. `where`
 * prefixes the option paths (e.g. `registryOptions`); default none.
 *
 * @example
 * resolveEditSurface({ modelId: "gpt-5-codex" }); // "apply_patch"
 * resolveEditSurface({ editSurface: "apply-patch" }); // throws: ... did you mean "apply_patch"?
 */
export function resolveEditSurface(options: EditSurfaceOptions, where = ""): EditSurface {
  const at = (path: string) => (where === "" ? path : `${where}.${path}`);
  const { editSurface, modelId } = options as { editSurface?: unknown; modelId?: unknown };
  if (editSurface !== undefined && !(EDIT_SURFACE_OPTIONS as readonly unknown[]).includes(editSurface)) {
    throw valueError(at("editSurface"), editSurface, EDIT_SURFACE_OPTIONS);
  }
  if (modelId !== undefined && typeof modelId !== "string") {
    const id = isOptionObject(modelId) && typeof modelId.id === "string" ? " (for a ModelClient, pass its id: modelId: model.id)" : "";
    throw new SdkError(
      "invalid_options",
      `${at("modelId")} must be a string, the id of the model the tools are offered to (e.g. "gpt-5" or "openai:gpt-5"), not ${describeOptionValue(modelId)}${id}.`,
      { option: at("modelId") },
    );
  }
  const rules = checkRules((options as { editSurfaceByModel?: unknown }).editSurfaceByModel, at("editSurfaceByModel"));
  if (editSurface !== undefined && editSurface !== "auto") return editSurface as EditSurface;
  return editSurfaceForModel(modelId as string | undefined, rules);
}

function checkRules(value: unknown, option: string): readonly EditSurfaceRule[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new SdkError(
      "invalid_options",
      `${option} must be an array of { model, surface } (e.g. [{ model: "gpt-5", surface: "both" }]), not ${describeOptionValue(value)}.`,
      { option },
    );
  }
  value.forEach((rule: unknown, index) => {
    const where = `${option}[${index}]`;
    if (!isOptionObject(rule)) {
      throw new SdkError("invalid_options", `${where} must be an object ({ model, surface }), not ${describeOptionValue(rule)}.`, { option: where });
    }
    rejectUnknownKeys(rule, RULE_KEYS, where);
    const model = rule.model;
    if (!(model instanceof RegExp) && (typeof model !== "string" || model.trim() === "")) {
      throw new SdkError(
        "invalid_options",
        `${where}.model must be a model id or prefix (a non-empty string such as "gpt-5") or a RegExp, not ${describeOptionValue(model)}.`,
        { option: `${where}.model` },
      );
    }
    if (!EDIT_SURFACES.includes(rule.surface as EditSurface)) throw valueError(`${where}.surface`, rule.surface, EDIT_SURFACES);
  });
  return value as readonly EditSurfaceRule[];
}

function valueError(option: string, value: unknown, allowed: readonly string[]): SdkError {
  const suggestion = typeof value === "string" ? closestName(value.replace(/-/g, "_"), allowed) : undefined;
  const listed = allowed.map((name) => JSON.stringify(name)).join(", ");
  return new SdkError(
    "invalid_options",
    `${option} must be one of ${listed}, not ${describeOptionValue(value)}${suggestion === undefined ? "" : `: did you mean ${JSON.stringify(suggestion)}?`}`,
    { option, ...(suggestion === undefined ? {} : { suggestion }) },
  );
}

/** The edit tool each surface leaves out. */
const HIDDEN_BY_SURFACE: Readonly<Record<EditSurface, readonly string[]>> = { apply_patch: ["Edit"], edit: ["ApplyPatch"], both: [] };

/**
 * The file-tool plugin with the edit tool `surface` leaves out removed from
 * its bundles (neither listed nor callable). A subagent's worktree registry
 * inherits the plugin, so it gets the same surface.
 *
 * @example
 * const plugin = withEditSurface(fsTools(options.fs), resolveEditSurface(options));
 */
export function withEditSurface(plugin: ToolPlugin, surface: EditSurface): ToolPlugin {
  const hidden = new Set(HIDDEN_BY_SURFACE[surface]);
  if (hidden.size === 0) return plugin;
  const readonlyChild = plugin.readonlyChild;
  return {
    ...plugin,
    ...(readonlyChild === undefined ? {} : { readonlyChild: () => withEditSurface(readonlyChild.call(plugin), surface) }),
    create: async (host) => {
      const output: ToolPluginOutput = await plugin.create(host);
      return Array.isArray(output) ? output.map((bundle) => withoutTools(bundle, hidden)) : withoutTools(output as ToolBundle, hidden);
    },
  };
}

/** The bundle without the tools named in `hidden`; everything else passes through. */
function withoutTools(bundle: ToolBundle, hidden: ReadonlySet<string>): ToolBundle {
  let source: readonly ToolDefinition[] | undefined;
  let listed: readonly ToolDefinition[] = [];
  return {
    id: bundle.id,
    trusted: bundle.trusted,
    listTools: () => {
      const tools = bundle.listTools();
      // The fs bundle answers the same array each time: filter once per array.
      if (tools !== source) {
        source = tools;
        listed = tools.filter((tool) => !hidden.has(tool.name));
      }
      return listed;
    },
    ...(bundle.isExposed === undefined ? {} : { isExposed: bundle.isExposed.bind(bundle) }),
    ...(bundle.onToolsChanged === undefined ? {} : { onToolsChanged: bundle.onToolsChanged.bind(bundle) }),
    ...(bundle.approvalTargets === undefined ? {} : { approvalTargets: bundle.approvalTargets.bind(bundle) }),
    ...(bundle.close === undefined ? {} : { close: bundle.close.bind(bundle) }),
  };
}
