import { SdkError } from "../errors.js";
import type { Logger, RuntimeScope, ToolBundle, ToolDefinition } from "../types.js";

/** A registered tool and whether it is shown to the model. */
export interface IndexedTool {
  tool: ToolDefinition;
  bundle: ToolBundle;
  exposed: boolean;
}

/** Name lookup over live bundles: exact first, then a unique case-insensitive key. */
export interface ToolIndex {
  current(): IndexedTool[];
  lookup(name: string): ToolDefinition | undefined;
}

/**
 * Indexes tools of bundles in order. A duplicate between two trusted bundles
 * throws `SdkError`; an untrusted newcomer (MCP) is skipped with a warning.
 */
export function createToolIndex(bundles: readonly ToolBundle[], scope: RuntimeScope, logger: Logger): ToolIndex {
  const warned = new Set<string>();

  // Rebuilt on every use: bundles may change their tools at any time (MCP
  // list_changed), and a registry holds tens of tools, so this is cheap.
  function build() {
    const lists = bundles.map((bundle) => bundle.listTools());
    const list: IndexedTool[] = [];
    const owner = new Map<string, ToolBundle>();
    const exact = new Map<string, ToolDefinition>();
    bundles.forEach((bundle, bundleIndex) => {
      for (const tool of lists[bundleIndex]!) {
        if (!tool.scopes.includes(scope)) continue;
        const previous = owner.get(tool.name);
        if (previous) {
          if (previous.trusted && bundle.trusted) {
            throw new SdkError("duplicate_tool", `Duplicate builtin tool name detected: ${tool.name} (bundles ${previous.id} and ${bundle.id}).`);
          }
          const warnKey = `${bundle.id}:${tool.name}`;
          if (!warned.has(warnKey)) {
            warned.add(warnKey);
            logger.warn(`Tool ${tool.name} from bundle ${bundle.id} collides with ${previous.id}; the newcomer is skipped.`);
          }
          continue;
        }
        owner.set(tool.name, bundle);
        exact.set(tool.name, tool);
        list.push({ tool, bundle, exposed: bundle.isExposed ? bundle.isExposed(tool.name) : true });
      }
    });
    const folded = new Map<string, ToolDefinition | null>();
    for (const tool of exact.values()) {
      const foldedKey = tool.name.trim().toLowerCase();
      folded.set(foldedKey, folded.has(foldedKey) ? null : tool);
    }
    return { list, exact, folded };
  }

  return {
    current: () => build().list,
    lookup(name) {
      const { exact, folded } = build();
      return exact.get(name) ?? folded.get(name.trim().toLowerCase()) ?? undefined;
    },
  };
}
