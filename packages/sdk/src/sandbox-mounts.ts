import { lstatSync, realpathSync } from "node:fs";
import path from "node:path";
import type { SandboxMountAdditions, SandboxPolicy, SandboxState, SpawnOptions } from "@agent-tools/core";
import type { NodePorts } from "./create-node-ports.js";

/** Computes additions for the next command (read at each spawn, so run-time changes such as skill grants count). */
export type SandboxMountSource = () => SandboxMountAdditions;
export type { SandboxMountAdditions };

/**
 * The dataDir masked: a confined command sees it empty and read-only (no
 * SQLite file with tasks, memory, checkpoints and OAuth tokens, no logs, no
 * other project's data). What lies below it and is granted (the workspace,
 * a root, an enabled skill) is bound back on top, and so is the uploads
 * folder (`<dataDir>/uploads`), read-only, when it is a real directory (a
 * symlink there is not followed: it stays masked). Nothing when the dataDir
 * does not exist yet or is `/`.
 *
 * @example
 * dataDirSandboxMounts("/home/me/.agent-tools")(); // { maskedDirectories: ["/home/me/.agent-tools"], readOnlyRoots: ["/home/me/.agent-tools/uploads"] }
 */
export function dataDirSandboxMounts(dataDir: string): SandboxMountSource {
  return () => {
    let canonical: string;
    try {
      canonical = realpathSync(dataDir);
    } catch {
      return {};
    }
    if (canonical === path.parse(canonical).root) return {};
    const uploads = path.join(canonical, "uploads");
    return isRealDirectory(uploads) ? { maskedDirectories: [canonical], readOnlyRoots: [uploads] } : { maskedDirectories: [canonical] };
  };
}

/** Whether `target` is a directory itself, not a symlink to one. */
function isRealDirectory(target: string): boolean {
  try {
    return lstatSync(target).isDirectory();
  } catch {
    return false;
  }
}

/** The policy with `additions` merged in; a directory both writable and read-only stays writable. */
function addMounts(policy: SandboxPolicy, additions: SandboxMountAdditions): SandboxPolicy {
  const writableRoots = [...new Set([...policy.writableRoots, ...(additions.writableRoots ?? [])])];
  const readOnlyRoots = [...new Set([...(policy.readOnlyRoots ?? []), ...(additions.readOnlyRoots ?? [])])].filter((root) => !writableRoots.includes(root));
  const maskedDirectories = [...new Set([...(policy.maskedDirectories ?? []), ...(additions.maskedDirectories ?? [])])];
  return { ...policy, writableRoots, readOnlyRoots, maskedDirectories };
}

/**
 * The ports with a sandbox that adds what `sources` give to every command's
 * policy (e.g. {@link dataDirSandboxMounts} and the skills bundle's
 * `sandboxMounts`). `sources` is read at each spawn: a source pushed later
 * (the skills bundle, built after the ports) counts from then on. Ports
 * without a sandbox, or whose sandbox is unavailable, are returned as they are.
 *
 * @example
 * const sources: SandboxMountSource[] = [dataDirSandboxMounts(dataDir)];
 * const confined = withSandboxMounts(ports, sources);
 * sources.push(() => skills.sandboxMounts());
 */
export function withSandboxMounts(ports: NodePorts, sources: readonly SandboxMountSource[] | (() => readonly SandboxMountSource[])): NodePorts {
  const state: SandboxState | undefined = ports.sandbox;
  const inner = state?.sandbox;
  if (state === undefined || inner === undefined) return ports;
  const confine = (options: SpawnOptions, policy: SandboxPolicy): SpawnOptions =>
    inner.confine(
      options,
      (typeof sources === "function" ? sources() : sources).reduce((merged, source) => addMounts(merged, source()), policy),
    );
  const sandbox: SandboxState = { ...state, sandbox: { mechanism: inner.mechanism, confine } };
  return Object.create(ports, { sandbox: { value: sandbox, enumerable: true } }) as NodePorts;
}
