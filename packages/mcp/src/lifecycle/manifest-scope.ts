/**
 * The scope a plugin's cached manifests are keyed with: the registry's
 * project, so two projects whose registries share one store (one `dataDir`)
 * never share a manifest, even for the same command.
 */
import fs from "node:fs";
import path from "node:path";

/** What the scope is made of: the registry's workdir and, for a non-local workspace, its label. */
export interface McpManifestScopeSource {
  /** The registry's workspace as given. */
  workdir: string;
  /** The label of the non-local workspace the registry works on; absent for a local one. */
  remoteWorkspace?: string;
}

/**
 * `local:<real path of workdir>` (resolved when it cannot be read), or
 * `remote:<label>:<workdir>` for a non-local workspace, whose paths are not
 * on this machine.
 *
 * @example
 * mcpManifestScope({ workdir: "/work/project" }); // "local:/work/project"
 */
export function mcpManifestScope(source: McpManifestScopeSource): string {
  if (source.remoteWorkspace !== undefined) return `remote:${JSON.stringify([source.remoteWorkspace, source.workdir])}`;
  const resolved = path.resolve(source.workdir);
  try {
    return `local:${fs.realpathSync.native(resolved)}`;
  } catch {
    return `local:${resolved}`;
  }
}
