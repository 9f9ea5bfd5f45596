/**
 * Slots every package may use without importing another tool package: the
 * shell applies what plugins add to {@link COMMAND_POLICY_SLOT}, the Node
 * sandbox adds what they put in {@link SANDBOX_MOUNT_SLOT}.
 */
import { type PluginSlot, definePluginSlot } from "./tool-plugin.js";

/** What a command policy is shown before a shell command is spawned. */
export interface CommandCheckRequest {
  /** The command as the model wrote it. */
  readonly command: string;
  /** The resolved absolute working directory. */
  readonly cwd: string;
  /** The cwd argument as given, if any. */
  readonly cwdInput?: string;
  /** The tool asking, e.g. `Bash` or `ManagedProcess`. */
  readonly toolName: string;
}

/** A check run before a command is spawned: a message refuses the command with it. */
export type CommandCheck = (request: CommandCheckRequest) => string | undefined | Promise<string | undefined>;

/** Command checks other plugins add to the shell of their registry (the skills plugin adds its access policy). */
export const COMMAND_POLICY_SLOT: PluginSlot<CommandCheck> = definePluginSlot<CommandCheck>("core.commandPolicy");

/** Directories a plugin adds to every confined command's mounts, read at each spawn. */
export interface SandboxMountAdditions {
  /** Shown empty (e.g. the data directory, the skills root). */
  readonly maskedDirectories?: readonly string[];
  /** Bound read-only. */
  readonly readOnlyRoots?: readonly string[];
  /** Bound writable. */
  readonly writableRoots?: readonly string[];
}

/** Mounts a plugin adds to its registry's sandbox (the skills plugin adds the skills commands may use). */
export const SANDBOX_MOUNT_SLOT: PluginSlot<() => SandboxMountAdditions> = definePluginSlot<() => SandboxMountAdditions>("core.sandboxMounts");
