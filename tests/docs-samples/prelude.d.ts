/**
 * The free variables the documentation samples use without defining them:
 * what a host already has in scope at that point of its own code. Every
 * sample is compiled as its own module with these ambient declarations (see
 * `compile.ts`); keep this list small and give each name the type the real
 * API hands out or expects.
 */

/** A registry built earlier with `buildBuiltinToolRegistry()`. */
declare const registry: import("@agent-tools/sdk").BuiltinToolRegistry;
/** The absolute project directory the tools work in. */
declare const workdir: string;
/** Where the SDK keeps its SQLite file, logs and skills. */
declare const dataDir: string;
/** The host's abort signal for one tool call. */
declare const signal: AbortSignal;
/** The host's streaming callback for one tool call. */
declare const onUpdate: import("@agent-tools/core").ExecuteToolCallOptions["onUpdate"];
/** An AI SDK language model, e.g. `openai("gpt-4.1")` from `@ai-sdk/openai`. */
declare const model: import("ai").LanguageModel;
/** An open `@agent-tools/storage` Storage. */
declare const storage: import("@agent-tools/storage").Storage;
/** The host's UI: a confirmation dialog and a transcript. */
declare const ui: {
  confirm(toolName: string, args: unknown): Promise<boolean>;
  append(text: string): void;
  showFile(path: string, kind: string): void;
};

// The reader's own adapters, in the samples about contract suites.
/** A host's own GitClient (docs/ports.md). */
declare const MyGitClient: new () => import("@agent-tools/core").GitClient;
