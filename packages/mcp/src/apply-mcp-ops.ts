/**
 * `applyMcpOps`: the pure, id-keyed reducer every MCP settings change goes
 * through. Hosts keep their settings in their own store and commit with it.
 */
import type { McpOp } from "@agent-tools/core/mcp";
import { type McpServerConfig, type McpSettings, normalizeMcpServerConfig } from "./settings.js";

export type { McpOp, McpUpsertOp, McpPatchOp, McpRemoveOp, McpSetEnabledOp } from "@agent-tools/core/mcp";

const same = (a: McpServerConfig, b: McpServerConfig) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Applies `ops` in order to `previous` and returns the new settings, or the
 * very same `previous` object when nothing changed. `selected` is kept to
 * existing ids. Never mutates its input.
 *
 * @example
 * let settings = emptyMcpSettings();
 * settings = applyMcpOps(settings, [{ type: "upsert", server: { id: "fs", command: "npx", args: ["-y", "server"] } }]);
 * applyMcpOps(settings, [{ type: "remove", id: "missing" }]) === settings; // true
 */
export function applyMcpOps(previous: McpSettings, ops: readonly McpOp[]): McpSettings {
  let servers = previous.servers ?? [];
  let changed = false;
  const replace = (index: number, next: McpServerConfig) => {
    if (same(servers[index]!, next)) return;
    servers = servers.map((server, at) => (at === index ? next : server));
    changed = true;
  };
  for (const op of ops) {
    switch (op.type) {
      case "upsert": {
        const next = normalizeMcpServerConfig(op.server);
        if (next.id === "") break;
        const index = servers.findIndex((server) => server.id === next.id);
        if (index < 0) {
          servers = [...servers, next];
          changed = true;
        } else replace(index, next);
        break;
      }
      case "patch": {
        const index = servers.findIndex((server) => server.id === op.id);
        if (index < 0) break;
        const { id: _ignored, ...fields } = op.patch as Partial<McpServerConfig>;
        replace(index, normalizeMcpServerConfig({ ...servers[index]!, ...fields, id: op.id }));
        break;
      }
      case "remove": {
        const next = servers.filter((server) => server.id !== op.id);
        if (next.length !== servers.length) {
          servers = next;
          changed = true;
        }
        break;
      }
      case "setEnabled": {
        const ids = new Set(op.serverIds);
        servers.forEach((server, index) => {
          if (ids.has(server.id) && server.enabled !== op.enabled) replace(index, { ...server, enabled: op.enabled });
        });
        break;
      }
      default:
        throw new TypeError(`Unknown MCP settings operation: ${JSON.stringify(op)}`);
    }
  }
  const ids = new Set(servers.map((server) => server.id));
  const previousSelected = previous.selected ?? [];
  const selected = previousSelected.filter((id) => ids.has(id));
  if (selected.length !== previousSelected.length) changed = true;
  if (!changed) return previous;
  return { ...previous, servers, selected };
}

/** A live, in-memory settings holder: a getter and a synchronous committer, for hosts and tests. */
export interface McpSettingsStore {
  /** The current settings (live: read it every time). */
  getSettings(): McpSettings;
  /** Applies ops synchronously through {@link applyMcpOps}. */
  applyOps(ops: readonly McpOp[]): void;
}

/**
 * An in-memory {@link McpSettingsStore}; `onChange` sees each new settings object.
 *
 * @example
 * const store = createInMemoryMcpSettingsStore();
 * const bundles = await createMcpToolBundles({ getSettings: store.getSettings, applyOps: store.applyOps });
 */
export function createInMemoryMcpSettingsStore(initial?: Partial<McpSettings>, onChange?: (settings: McpSettings) => void): McpSettingsStore {
  let settings: McpSettings = { servers: (initial?.servers ?? []).map((server) => normalizeMcpServerConfig(server)), selected: [...(initial?.selected ?? [])] };
  return {
    getSettings: () => settings,
    applyOps(ops) {
      const next = applyMcpOps(settings, ops);
      if (next === settings) return;
      settings = next;
      onChange?.(next);
    },
  };
}
