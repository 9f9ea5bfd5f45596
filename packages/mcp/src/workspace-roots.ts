/**
 * The roots a registry offers to MCP servers (`roots/list`): the workspace and
 * every granted root that is still active, as `file://` URIs; read-only
 * roots say so in their names.
 */
import { pathToFileURL } from "node:url";
import { type AdditionalRoot, type PathPolicy, createPathPolicy } from "@agent-tools/core";

/** One root as MCP servers see it. */
export interface WorkspaceMcpRoot {
  uri: string;
  name: string;
}

/** The workspace as `workspace`, then each active granted root as its alias (`docs (read-only)` for read access). */
export function mcpRootsOf(paths: PathPolicy): WorkspaceMcpRoot[] {
  const roots: WorkspaceMcpRoot[] = [{ uri: pathToFileURL(paths.workdir).href, name: "workspace" }];
  for (const root of paths.roots()) {
    // A moved or missing root is refused by the file tools, so it is not offered either.
    if (root.status !== "active") continue;
    roots.push({ uri: pathToFileURL(root.canonicalPath).href, name: root.access === "read" ? `${root.alias} (read-only)` : root.alias });
  }
  return roots;
}

/**
 * The roots getter of a registry's MCP client: the registry's path policy
 * once it is built, before that (servers may ask while they connect) a
 * policy of the same workspace and grants.
 */
export function workspaceMcpRoots(
  registryPaths: () => PathPolicy | undefined,
  options: { workdir: string; additionalRoots?: readonly AdditionalRoot[] },
): () => WorkspaceMcpRoot[] {
  let early: PathPolicy | undefined;
  return () => mcpRootsOf(registryPaths() ?? (early ??= createPathPolicy({ workdir: options.workdir, additionalRoots: options.additionalRoots })));
}
