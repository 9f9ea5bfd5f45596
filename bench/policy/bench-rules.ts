/**
 * Rule sets of realistic shape for the decision benchmark: the mix a team's
 * settings hold (Bash prefixes and exact commands, path rules on Read and
 * Edit, MCP names and globs), grown to any size with generated names.
 */

/** A Claude Code settings `permissions` block. */
export interface BenchPermissions {
  allow: string[];
  ask: string[];
  deny: string[];
}

const SCRIPTS = ["build", "lint", "typecheck", "format", "dev", "start", "bench", "docs", "clean", "release"];
const GIT = ["status", "diff", "log", "show", "branch", "fetch", "blame", "stash list", "rev-parse", "ls-files"];
const TOOLS = ["cargo", "go", "make", "pytest", "tsc", "eslint", "prettier", "docker", "kubectl", "terraform"];
const SERVERS = ["github", "linear", "sentry", "slack", "notion"];

/**
 * `count` rules: about 60 % Bash (allow prefixes, a few ask and deny), 30 %
 * paths (Read / Edit allow and deny, anchored, any-depth, home), 10 % MCP.
 * Rules past the first hundred name generated packages and scripts, so a
 * 1,000-rule set is as varied as a real one and matches the same calls.
 */
export function benchPermissions(count: number): BenchPermissions {
  const permissions: BenchPermissions = { allow: [], ask: [], deny: [] };
  const fixed: Array<[keyof BenchPermissions, string]> = [
    ["allow", "Bash(git status)"],
    ["allow", "Bash(npm run test *)"],
    ["allow", "Bash(cd *)"],
    ["allow", "Bash(grep *)"],
    ["allow", "Bash(head *)"],
    ["deny", "Bash(rm -rf *)"],
    ["deny", "Bash(git push --force *)"],
    ["ask", "Bash(git push *)"],
    ["deny", "Read(~/.ssh/**)"],
    ["deny", "Read(.env)"],
    ["deny", "Read(*.pem)"],
    ["allow", "Edit(src/**)"],
  ];
  for (const [list, rule] of fixed) permissions[list].push(rule);
  for (let index = 0; permissions.allow.length + permissions.ask.length + permissions.deny.length < count; index += 1) {
    const tag = index < 10 ? "" : `-${Math.floor(index / 10)}`;
    const slot = index % 10;
    switch (index % 10) {
      case 0:
      case 1:
      case 2:
        permissions.allow.push(`Bash(npm run ${SCRIPTS[(index * 3 + slot) % SCRIPTS.length]}${tag} *)`);
        break;
      case 3:
        permissions.allow.push(`Bash(git ${GIT[index % GIT.length]}${tag === "" ? "" : ` --${tag.slice(1)}`}:*)`);
        break;
      case 4:
        permissions.allow.push(`Bash(${TOOLS[index % TOOLS.length]}${tag} *)`);
        break;
      case 5:
        permissions[index % 20 === 5 ? "deny" : "ask"].push(`Bash(${TOOLS[index % TOOLS.length]}${tag} deploy *)`);
        break;
      case 6:
        permissions.allow.push(`Read(packages/pkg${index}/**)`);
        break;
      case 7:
        permissions[index % 20 === 7 ? "deny" : "allow"].push(`Edit(/packages/pkg${index}/src/**)`);
        break;
      case 8:
        permissions.deny.push(index % 20 === 8 ? `Read(secret-${index}.*)` : `Edit(//etc/app${index}/**)`);
        break;
      default:
        permissions[index % 20 === 9 ? "allow" : "ask"].push(
          `mcp_${SERVERS[index % SERVERS.length]}${tag.replace("-", "")}_${index % 20 === 9 ? "*" : `tool${index}`}`,
        );
    }
  }
  return permissions;
}

/** The calls timed: typical command lines (one that an ask rule catches) and two file calls. */
export const BENCH_CALLS: ReadonlyArray<{ label: string; name: string; arguments: Record<string, unknown> }> = [
  { label: "Bash git status", name: "Bash", arguments: { command: "git status" } },
  { label: "Bash npm run test -- --watch=false", name: "Bash", arguments: { command: "npm run test -- --watch=false" } },
  { label: "Bash cd src && grep -rn foo . | head", name: "Bash", arguments: { command: "cd src && grep -rn foo . | head" } },
  { label: "Bash git push origin main (ask)", name: "Bash", arguments: { command: "git push origin main" } },
  { label: "Read src/index.ts", name: "Read", arguments: { path: "src/index.ts" } },
  { label: "Edit src/index.ts", name: "Edit", arguments: { path: "src/index.ts", old_string: "a", new_string: "b" } },
];
