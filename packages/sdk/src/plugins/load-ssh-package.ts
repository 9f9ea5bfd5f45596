import type { ToolPlugin } from "@agent-tools/core";
import type { SshHostConfig } from "@agent-tools/ssh";
import type { SdkSshHostConfig, SdkSshOptions } from "../ssh-options.js";
import { loadOptionalPeer } from "./load-optional-peer.js";

/** The optional peer that implements the `ssh` option. */
export const SSH_PACKAGE = "@agent-tools/ssh";

/** What the sdk uses of `@agent-tools/ssh` (typed here, so the sdk's declarations never name the package). */
export interface LoadedSshPackage {
  sshManagerTools(options: SdkSshOptions): ToolPlugin;
}

/** The sdk's copy of the host type and the package's are the same type: `true` here stops compiling when they drift apart. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const hostConfigMatchesPackage: Same<SdkSshHostConfig, SshHostConfig> = true;
void hostConfigMatchesPackage;

/**
 * Imports `@agent-tools/ssh`, an optional peer of the sdk: only a host that
 * configures `ssh` installs it. When it is not installed this rejects with
 * `SdkError("unsupported")` naming the package and `npm install
 * @agent-tools/ssh@<the sdk's version>`; `details` holds `option`, `package`
 * and `version`. Any other failure to load it is rethrown as is. `load` is
 * the import (a test passes its own).
 */
export async function loadSshPackage(load: () => Promise<LoadedSshPackage> = () => import("@agent-tools/ssh")): Promise<LoadedSshPackage> {
  return loadOptionalPeer("ssh", SSH_PACKAGE, load);
}
