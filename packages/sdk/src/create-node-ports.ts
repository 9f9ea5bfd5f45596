import type { GitClient, ProcessRunner, ToolPorts } from "@agent-tools/core";
import { createDefaultGitClient } from "@agent-tools/git";
import { ExecaProcessRunner } from "@agent-tools/node";

/** Options of {@link createNodePorts}. */
export interface NodePortsOptions {
  /** Ports the host brings; each one given is used as is and never closed here. */
  ports?: Partial<ToolPorts>;
}

/** {@link ToolPorts} on Node, plus `close()` for what they created. */
export interface NodePorts extends ToolPorts {
  /** Kills what the process runner it created still runs. Idempotent; given ports are left alone. */
  close(): Promise<void>;
}

/**
 * The Node defaults of every port, created on first use: an
 * `ExecaProcessRunner` (own process group, tree kill) and the git CLI through
 * it (isomorphic-git when no `git` binary is on PATH). The model client is
 * the host's. Pass the result as `ports` and `close` as a registry cleanup.
 *
 * @example
 * const ports = createNodePorts();
 * const registry = createToolRegistry({ workdir, bundles, ports, cleanups: [() => ports.close()] });
 */
export function createNodePorts(options: NodePortsOptions = {}): NodePorts {
  const given = options.ports;
  let ownedRunner: ExecaProcessRunner | undefined;
  let gitClient: GitClient | undefined;
  const ports: NodePorts = {
    get processRunner(): ProcessRunner {
      if (given?.processRunner) return given.processRunner;
      ownedRunner ??= new ExecaProcessRunner();
      return ownedRunner;
    },
    get gitClient(): GitClient {
      if (given?.gitClient) return given.gitClient;
      gitClient ??= createDefaultGitClient(ports.processRunner);
      return gitClient;
    },
    get modelClient() {
      return given?.modelClient;
    },
    // The host's workspace, never closed here: the host owns it.
    get workspace() {
      return given?.workspace;
    },
    async close() {
      await ownedRunner?.close();
    },
  };
  return ports;
}
