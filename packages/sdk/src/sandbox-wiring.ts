import type { SandboxSettings, SandboxState } from "@agent-tools/core";
import type { CronBashSandbox } from "@agent-tools/cron";
import { probeBubblewrapSandbox, resolveSandboxPolicy } from "@agent-tools/node";
import type { NodePorts } from "./create-node-ports.js";

/** The `sandbox` option of `buildBuiltinToolRegistry`. */
export interface SdkSandboxOptions extends SandboxSettings {
  /** Path of bubblewrap (`bwrap`); default: the first one on `PATH`. */
  bubblewrapPath?: string;
}

/**
 * Probes the sandbox once for a registry: undefined when none was asked for
 * (`enabled` false or the option absent), else the {@link SandboxState}
 * (confining, or `unavailable` with the reason: then every command is refused).
 *
 * @example
 * const state = await resolveSdkSandbox({ enabled: true });
 */
export async function resolveSdkSandbox(options: SdkSandboxOptions | undefined): Promise<SandboxState | undefined> {
  if (options === undefined || options.enabled !== true) return undefined;
  const { bubblewrapPath, ...settings } = options;
  return probeBubblewrapSandbox({ settings, executable: bubblewrapPath });
}

/**
 * The registry's ports with `sandbox` set: the host's own `ports.sandbox`
 * wins; otherwise the probe of `options`. The other ports stay the same
 * (lazy) objects.
 *
 * @example
 * const ports = await withSandboxPort(createNodePorts(), { enabled: true }, hostPorts?.sandbox);
 */
export async function withSandboxPort(ports: NodePorts, options: SdkSandboxOptions | undefined, given?: SandboxState): Promise<NodePorts> {
  const sandbox = given ?? (await resolveSdkSandbox(options));
  if (sandbox === undefined) return ports;
  return Object.create(ports, { sandbox: { value: sandbox, enumerable: true } }) as NodePorts;
}

/**
 * The confinement of cron bash tasks under a sandbox state (the host's
 * `ports.sandbox` or a probe of {@link resolveSdkSandbox}): each task's
 * workdir is its writable directory. Undefined when no sandbox was asked for.
 *
 * @example
 * const bashSandbox = cronBashSandboxOf(await resolveSdkSandbox({ enabled: true }));
 */
export function cronBashSandboxOf(state: SandboxState | undefined): CronBashSandbox | undefined {
  if (state === undefined) return undefined;
  return { state, policy: (workdir) => resolveSandboxPolicy({ settings: state.settings, writableRoots: [workdir] }) };
}
