/** Checks of a plugin list, and the list a child registry gets from it. */
import { SdkError } from "../errors.js";
import { closestName } from "../registry/closest-name.js";
import { RUNTIME_SCOPES } from "../types.js";
import { TOOL_PLUGIN_CHILD_POLICIES, type ToolPlugin } from "./tool-plugin.js";

/** Throws `SdkError` (`invalid_options`) naming the first malformed or duplicate plugin. */
export function checkToolPlugins(plugins: unknown): asserts plugins is readonly ToolPlugin[] {
  if (!Array.isArray(plugins)) throw new SdkError("invalid_options", "plugins must be an array of tool plugins ({ id, scopes, child, create }).");
  const ids = new Set<string>();
  for (const candidate of plugins) {
    const plugin = candidate as Partial<ToolPlugin> | null;
    if (plugin === null || typeof plugin !== "object" || typeof plugin.id !== "string" || plugin.id === "" || typeof plugin.create !== "function") {
      throw new SdkError("invalid_options", "Each plugin must be an object with a non-empty string id and a create(host) function.");
    }
    const where = `Plugin ${plugin.id}`;
    if (ids.has(plugin.id)) throw new SdkError("invalid_options", `${where} is listed twice; plugin ids must be unique.`, { plugin: plugin.id });
    ids.add(plugin.id);
    if (!Array.isArray(plugin.scopes) || plugin.scopes.some((scope) => !(RUNTIME_SCOPES as readonly unknown[]).includes(scope))) {
      throw new SdkError("invalid_options", `${where}: scopes must list runtime scopes (${RUNTIME_SCOPES.join(", ")}), not ${JSON.stringify(plugin.scopes)}.`, {
        plugin: plugin.id,
      });
    }
    if (!TOOL_PLUGIN_CHILD_POLICIES.includes(plugin.child as never)) {
      const near = typeof plugin.child === "string" ? closestName(plugin.child, TOOL_PLUGIN_CHILD_POLICIES) : undefined;
      throw new SdkError(
        "invalid_options",
        `${where}: child must be one of ${TOOL_PLUGIN_CHILD_POLICIES.join(", ")}, not ${JSON.stringify(plugin.child)}${near === undefined ? "" : ` (did you mean ${near}?)`}.`,
        { plugin: plugin.id },
      );
    }
    if (plugin.child === "readonly" && typeof plugin.readonlyChild !== "function") {
      throw new SdkError("invalid_options", `${where} says child: "readonly" but has no readonlyChild().`, { plugin: plugin.id });
    }
  }
}

/** The plugins a child registry gets: each `inherit` plugin, each `readonly` plugin's read-only variant, nothing else. */
export function childPluginsOf(plugins: readonly ToolPlugin[]): ToolPlugin[] {
  const out: ToolPlugin[] = [];
  for (const plugin of plugins) {
    if (plugin.child === "inherit") out.push(plugin);
    else if (plugin.child === "readonly") out.push((plugin.readonlyChild as () => ToolPlugin)());
  }
  return out;
}
