import { type ComposedPorts, type PortsRequest, SANDBOX_MOUNT_SLOT, type SandboxState, type ToolPorts } from "@agent-tools/core";
import { type SdkCheckpointStoreOptions, withCheckpointRecorder } from "../checkpoint-wiring.js";
import { createNodePorts } from "../create-node-ports.js";
import { dataDirSandboxMounts, withSandboxMounts } from "../sandbox-mounts.js";
import { sharedSqliteLease } from "./shared-sqlite-lease.js";

/** What {@link nodePortsFactory} builds every registry's ports from. */
export interface NodePortsFactoryOptions {
  /** The host's own ports; each one given is used as is and never closed here. */
  readonly ports?: Partial<ToolPorts>;
  /** The sandbox probed once for the registry and all its children. */
  readonly sandbox?: SandboxState;
  /** Where file checkpoints are recorded (chat scope), unless `ports.fileCheckpoints` is given. */
  readonly checkpoints?: SdkCheckpointStoreOptions;
}

/**
 * The ports of each registry (and of each worktree child): the Node
 * defaults, the sandbox probed once with the data directory masked and the
 * mounts plugins add (skills), and in chat a file-checkpoint recorder on the
 * shared SQLite file of the registry's resource hub.
 */
export function nodePortsFactory(options: NodePortsFactoryOptions): (request: PortsRequest) => ComposedPorts {
  return (request) => {
    const base = createNodePorts({ ports: options.ports });
    const sandboxed = options.sandbox === undefined ? base : (Object.create(base, { sandbox: { value: options.sandbox, enumerable: true } }) as typeof base);
    const dataDirMounts = dataDirSandboxMounts(request.dataDir);
    // Read at each spawn: the data directory masked, then whatever the plugins added (the skills they let commands use).
    const ports = withSandboxMounts(sandboxed, () => [dataDirMounts, ...request.contributions(SANDBOX_MOUNT_SLOT)]);
    return withCheckpointRecorder({
      checkpoints: options.checkpoints,
      hostRecorder: options.ports?.fileCheckpoints,
      runtimeScope: request.runtimeScope,
      ports,
      sharedStorage: () => sharedSqliteLease(request),
    });
  };
}
