/**
 * The narrowed view of a registry that plugins receive while it is being
 * built: each member reads the registry once it exists, and throws before.
 */
import { SdkError } from "../errors.js";
import type { ToolRegistry } from "../registry/tool-registry.js";
import type { RegistryView } from "./tool-plugin.js";

/** A view and the one place that attaches the built registry to it. */
export interface RegistryViewHandle {
  readonly view: RegistryView;
  attach(registry: ToolRegistry): void;
}

/** Makes a {@link RegistryViewHandle}. */
export function createRegistryView(): RegistryViewHandle {
  let target: ToolRegistry | undefined;
  const built = (): ToolRegistry => {
    if (target === undefined) throw new SdkError("invalid_options", "A plugin used its registry before the registry was built; use it when a tool runs.");
    return target;
  };
  const view: RegistryView = {
    get built() {
      return target !== undefined;
    },
    get workdir() {
      return built().workdir;
    },
    get runtimeScope() {
      return built().runtimeScope;
    },
    get paths() {
      return built().paths;
    },
    get tools() {
      return built().tools;
    },
    get planMode() {
      return built().planMode;
    },
    setPlanMode: (on) => built().setPlanMode(on),
    hasTool: (name) => built().hasTool(name),
    approvalDecision: (name, input) => built().approvalDecision(name, input),
    registry: built,
  };
  return {
    view,
    attach(registry) {
      if (target !== undefined) throw new SdkError("invalid_options", "A registry view was attached twice.");
      target = registry;
    },
  };
}
