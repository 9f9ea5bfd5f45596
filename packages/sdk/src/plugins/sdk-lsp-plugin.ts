import { homedir } from "node:os";
import type { ToolPlugin } from "@agent-tools/core";
import type { LspPluginOptions } from "@agent-tools/lsp";
import type { PermissionSettings } from "@agent-tools/policy";
import type { LayeredPermissionSettings } from "@agent-tools/policy/internal";

/**
 * `lspTools` of `@agent-tools/lsp` (the LSP tool and diagnostics after
 * edits), imported only when the host turns it on. Its options are checked
 * with the path the host wrote (`lsp.maxResults`). A worktree child gets
 * its own servers on its worktree. The `Read(...)` deny and ask rules of
 * `permissions` become the paths the servers' read guard hides (matched as
 * the policy matches them), so hover and diagnostics cannot quote them.
 */
export function sdkLspPlugin(options: true | LspPluginOptions, permissions?: PermissionSettings | LayeredPermissionSettings): ToolPlugin {
  const given = options === true ? {} : options;
  return {
    id: "lsp",
    scopes: ["chat", "cron"],
    child: "inherit",
    async create(host) {
      const [{ lspTools }, { checkLspPluginOptions }] = await Promise.all([import("@agent-tools/lsp"), import("@agent-tools/lsp/internal")]);
      const checked = checkLspPluginOptions(given, "lsp");
      if (permissions === undefined) return lspTools(checked).create(host);
      const { isCaseInsensitive, pathBasesOf, readHiddenPaths } = await import("@agent-tools/policy/internal");
      const hiddenPaths = () => {
        const bases = pathBasesOf({ ...(host.registry.built ? { paths: host.registry.paths } : {}), workdir: host.workdir, home: homedir() });
        const own = readHiddenPaths(permissions, bases, isCaseInsensitive(bases.workdir.at(-1) ?? host.workdir, new Map()));
        return [...(checked.hiddenPaths?.() ?? []), ...own];
      };
      hiddenPaths(); // a glob the guard cannot evaluate throws SdkError at build
      return lspTools({ ...checked, hiddenPaths }).create(host);
    },
  };
}
