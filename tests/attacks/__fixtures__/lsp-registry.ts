/**
 * The registry the LSP attacks play against: a real git work tree with
 * `lsp: true` and `Read(secret/**)` denied, calls allowed, nothing else.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";

/** Makes `workdir` a git repository (gitignore applies) and builds the attacked registry; `temporary` holds its data. */
export function buildLspAttackRegistry(workdir: string, temporary: string): ReturnType<typeof buildBuiltinToolRegistry> {
  execFileSync("git", ["init", "-q"], { cwd: workdir });
  return buildBuiltinToolRegistry({
    workdir,
    dataDir: path.join(temporary, "data"),
    memory: false,
    lsp: true,
    permissions: { deny: ["Read(secret/**)"] },
    approval: { defaultDecision: "allow" },
  });
}
