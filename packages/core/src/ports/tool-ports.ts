import type { SandboxState } from "./command-sandbox.js";
import type { FileCheckpointRecorder } from "./file-checkpoints.js";
import type { GitClient } from "./git-client.js";
import type { ModelClient } from "./model-client.js";
import type { ProcessRunner } from "./process-runner.js";
import type { Workspace } from "../workspace/workspace-port.js";

/** The ports a registry hands to its tools. */
export interface ToolPorts {
  /** Starts and kills processes. */
  readonly processRunner: ProcessRunner;
  /** Git operations; default: the git CLI through `processRunner`, isomorphic-git without a git binary. */
  readonly gitClient: GitClient;
  /** The host's model, for tools that need one (subagents, prompt cron tasks). */
  readonly modelClient?: ModelClient;
  /** Confinement of the shell tools' commands; absent: no sandbox was asked for (`sandbox: none`). */
  readonly sandbox?: SandboxState;
  /** Pre-image recording of Write / Edit / Delete for calls inside a checkpoint. */
  readonly fileCheckpoints?: FileCheckpointRecorder;
  /**
   * Where the tools work when it is not the host's own disk (an SSH machine,
   * an in-memory tree, a provider's sandbox): the file tools read and write
   * through its file system and the shell tools run through its processes.
   * Absent, or a workspace with `capabilities.localPaths`: the local disk.
   */
  readonly workspace?: Workspace;
}
