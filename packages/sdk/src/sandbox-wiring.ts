import { SdkError, type SandboxSettings, type SandboxState } from "@agent-tools/core";
import { probeBubblewrapSandbox } from "@agent-tools/node";
import { checkSandboxSettings } from "@agent-tools/node/internal";

/** The `sandbox` option of `buildBuiltinToolRegistry`. */
export interface SdkSandboxOptions extends SandboxSettings {
  /** Path of bubblewrap (`bwrap`); default: the first one on `PATH`. */
  bubblewrapPath?: string;
}

/**
 * Checks the `sandbox` option and fails closed: an unknown key, a value of
 * the wrong type, a relative path or a bad `environment.allow` entry throws
 * `SdkError` (`invalid_options`) naming it. Returns the settings without
 * `bubblewrapPath`, and that path.
 *
 * @example
 * const { settings, bubblewrapPath } = checkSdkSandboxOptions({ enabled: true, environment: { allow: ["NPM_*"] } });
 */
export function checkSdkSandboxOptions(options: SdkSandboxOptions): { settings: SandboxSettings; bubblewrapPath?: string } {
  checkSandboxSettings(options, ["bubblewrapPath"]);
  const { bubblewrapPath, ...settings } = options;
  if (bubblewrapPath !== undefined && (typeof bubblewrapPath !== "string" || !bubblewrapPath.startsWith("/"))) {
    throw new SdkError(
      "invalid_options",
      `sandbox.bubblewrapPath must be the absolute path of bwrap (e.g. "/usr/bin/bwrap"), not ${JSON.stringify(bubblewrapPath)}.`,
      {
        key: "bubblewrapPath",
      },
    );
  }
  return { settings, ...(bubblewrapPath === undefined ? {} : { bubblewrapPath }) };
}

/**
 * Probes the sandbox once for a registry: undefined when none was asked for
 * (`enabled` false or the option absent), else the {@link SandboxState}
 * (confining, or `unavailable` with the reason: then every command is
 * refused). The option is checked first ({@link checkSdkSandboxOptions}):
 * a mistyped one throws `SdkError` instead of confining less than asked.
 *
 * @example
 * const state = await resolveSdkSandbox({ enabled: true });
 */
export async function resolveSdkSandbox(options: SdkSandboxOptions | undefined): Promise<SandboxState | undefined> {
  if (options === undefined) return undefined;
  const { settings, bubblewrapPath } = checkSdkSandboxOptions(options);
  if (settings.enabled !== true) return undefined;
  return probeBubblewrapSandbox({ settings, executable: bubblewrapPath });
}

/**
 * The sandbox of a registry: the host's own `ports.sandbox` when given, else
 * the one `options` asks for, probed here (once for a registry and its
 * worktree children). `options` is checked either way: a mistyped option is a
 * mistake even when the host's own sandbox wins.
 */
export async function resolveSandboxState(options: SdkSandboxOptions | undefined, given?: SandboxState): Promise<SandboxState | undefined> {
  if (options !== undefined) checkSdkSandboxOptions(options);
  return given ?? (await resolveSdkSandbox(options));
}
