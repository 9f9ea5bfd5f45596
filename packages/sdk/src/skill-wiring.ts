import path from "node:path";
import type { GitClient } from "@agent-tools/core";
import type { ManagedSkillsChange, SkillAccessPolicy, SkillRegistry, SkillToolBundle } from "@agent-tools/skills";

/** The `skills` option of `buildBuiltinToolRegistry` (chat and cron scopes). */
export interface SdkSkillOptions {
  /** The skills root; default `<dataDir>/skills`. The two built-in skills are written there on first use. */
  readonly rootDir?: string;
  /** Which skills the model may see, use and change (default: every installed skill readable, management allowed, no file-tool writes in skills). */
  readonly policy?: SkillAccessPolicy;
  /** A skill registry for `registry_search` and `registry_install` (e.g. `HttpSkillRegistry`). */
  readonly registry?: SkillRegistry;
  /** Told after install, create, registry install and delete; the new skill is already enabled for the session. */
  readonly onManagedSkillsChanged?: (change: ManagedSkillsChange) => void | Promise<void>;
  /** Called with the bundle once built: e.g. to put `await bundle.renderPromptSection()` in the system prompt. */
  readonly onReady?: (bundle: SkillToolBundle) => void;
}

/**
 * The skills bundle of a built-in registry: imported only when the host
 * turns skills on (a file-tools-only host loads no YAML or zip code), rooted
 * at `<dataDir>/skills` unless the host says otherwise, installing from git
 * through the registry's GitClient.
 */
export async function createSdkSkillBundle(input: {
  readonly options: SdkSkillOptions;
  readonly dataDir: string;
  readonly workdir: string;
  readonly gitClient: GitClient;
}): Promise<SkillToolBundle> {
  const { createSkillToolBundle } = await import("@agent-tools/skills");
  const { options } = input;
  const bundle = createSkillToolBundle({
    rootDir: path.resolve(options.rootDir ?? path.join(input.dataDir, "skills")),
    workdir: input.workdir,
    gitClient: input.gitClient,
    ...(options.policy === undefined ? {} : { policy: options.policy }),
    ...(options.registry === undefined ? {} : { registry: options.registry }),
    ...(options.onManagedSkillsChanged === undefined ? {} : { onManagedSkillsChanged: options.onManagedSkillsChanged }),
  });
  options.onReady?.(bundle);
  return bundle;
}
