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
