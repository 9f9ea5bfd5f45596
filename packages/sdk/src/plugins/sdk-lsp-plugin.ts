import type { ToolPlugin } from "@agent-tools/core";
import type { LspPluginOptions } from "@agent-tools/lsp";

/**
 * `lspTools` of `@agent-tools/lsp` (the LSP tool and diagnostics after
 * edits), imported only when the host turns it on. Its options are checked
 * with the path the host wrote (`lsp.maxResults`). A worktree child gets
 * its own servers on its worktree.
 */
export function sdkLspPlugin(options: true | LspPluginOptions): ToolPlugin {
  const given = options === true ? {} : options;
  return {
    id: "lsp",
    scopes: ["chat", "cron"],
    child: "inherit",
    async create(host) {
      const { lspTools, checkLspPluginOptions } = await import("@agent-tools/lsp");
      return lspTools(checkLspPluginOptions(given, "lsp")).create(host);
    },
  };
}
