import { SdkError } from "@agent-tools/core";
import { isModuleNotFoundError } from "@agent-tools/core/internal";
import type { IsomorphicGitEngine } from "./isomorphic-git-engine.js";

/** The optional peers of {@link IsomorphicGitClient}, with the versions this package is tested on. */
export const ISOMORPHIC_GIT_PEERS: readonly OptionalPeer[] = [
  { name: "isomorphic-git", version: "1.44.19", load: () => import("isomorphic-git") },
  { name: "diff", version: "9.0.0", load: () => import("diff") },
  { name: "diff3", version: "0.0.3", load: () => import("diff3") },
];

/** How a peer is imported; a test passes one that fails. */
export interface OptionalPeer {
  readonly name: string;
  readonly version: string;
  load(): Promise<unknown>;
}

/**
 * Imports the optional peers, then the engine that uses them. A peer that is
 * not installed rejects with `SdkError("unsupported")` naming the package
 * and the command that installs it; `details.package` holds its name.
 */
export async function loadIsomorphicEngine(peers: readonly OptionalPeer[] = ISOMORPHIC_GIT_PEERS): Promise<typeof IsomorphicGitEngine> {
  for (const peer of peers) {
    try {
      await peer.load();
    } catch (error) {
      if (!isModuleNotFoundError(error, peer.name)) throw error;
      throw new SdkError(
        "unsupported",
        `IsomorphicGitClient needs the optional package ${peer.name}: npm install ${peer.name}@${peer.version} (or install git and use GitCliClient).`,
        { package: peer.name, version: peer.version },
        { cause: error },
      );
    }
  }
  return (await import("./isomorphic-git-engine.js")).IsomorphicGitEngine;
}
