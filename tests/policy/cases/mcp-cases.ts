/**
 * MCP tool names: `mcp_<server>_<tool>` exactly, globs with `*`, and the
 * legacy `server:<id>`. The fixture servers `github` (create_issue,
 * list_issues, delete_repo) and `gitlab` (create_issue) write a marker file
 * when a tool runs (see ../mcp-fixture-server.mjs). MCP tools are not
 * read-only: without a rule they ask, unless approval settles them.
 */
import { callRows } from "./case-builders.js";
import { ALLOW_FALLBACK, ASK_FALLBACK, type CaseGroup } from "./case-types.js";

const issue = { title: "t" };

const mcpRows = [
  ...callRows({ permissions: { deny: ["mcp_github_delete_repo"] }, approval: ALLOW_FALLBACK }, [
    ["exact MCP name denied", "mcp_github_delete_repo", {}, "deny", "mcp_github_delete_repo"],
    ["exact MCP name: another tool of the server", "mcp_github_list_issues", {}, "allow"],
  ]),
  ...callRows({ permissions: { ask: ["mcp_github_*"] }, approval: ALLOW_FALLBACK }, [
    ["server glob asks for one tool", "mcp_github_create_issue", issue, "ask", "mcp_github_*"],
    ["server glob asks for another tool", "mcp_github_list_issues", {}, "ask", "mcp_github_*"],
    ["server glob does not cover another server", "mcp_gitlab_create_issue", issue, "allow"],
  ]),
  ...callRows({ permissions: { allow: ["mcp_github_list_issues"] }, approval: ASK_FALLBACK }, [
    ["exact MCP name allowed", "mcp_github_list_issues", {}, "allow", "mcp_github_list_issues"],
    ["exact allow does not cover a sibling", "mcp_github_create_issue", issue, "ask"],
  ]),
  ...callRows({ permissions: { deny: ["server:gitlab"] }, approval: ALLOW_FALLBACK }, [
    ["legacy server:<id> denies the server's tools", "mcp_gitlab_create_issue", issue, "deny", "server:gitlab"],
    ["legacy server:<id> does not cover another server", "mcp_github_list_issues", {}, "allow"],
  ]),
  ...callRows({ permissions: { allow: ["server:github"] }, approval: ASK_FALLBACK }, [
    ["legacy server:<id> allows the server's tools", "mcp_github_create_issue", issue, "allow", "server:github"],
    ["legacy server:<id> allow leaves other servers to the fallback", "mcp_gitlab_create_issue", issue, "ask"],
  ]),
  ...callRows({ permissions: { deny: ["mcp_*_create_issue"] }, approval: ALLOW_FALLBACK }, [
    ["'*' in the middle of a name: github", "mcp_github_create_issue", issue, "deny", "mcp_*_create_issue"],
    ["'*' in the middle of a name: gitlab", "mcp_gitlab_create_issue", issue, "deny", "mcp_*_create_issue"],
    ["'*' in the middle of a name: other tools", "mcp_github_list_issues", {}, "allow"],
  ]),
  ...callRows({ permissions: { allow: ["mcp_github_*"], deny: ["mcp_github_delete_repo"] }, approval: ASK_FALLBACK }, [
    ["deny of one tool beats the server's allow glob", "mcp_github_delete_repo", {}, "deny", "mcp_github_delete_repo"],
    ["the allow glob covers the rest", "mcp_github_create_issue", issue, "allow", "mcp_github_*"],
  ]),
  ...callRows({ permissions: { ask: ["mcp_git*"] }, approval: ALLOW_FALLBACK }, [
    ["a prefix glob spans servers (github)", "mcp_github_list_issues", {}, "ask", "mcp_git*"],
    ["a prefix glob spans servers (gitlab)", "mcp_gitlab_create_issue", issue, "ask", "mcp_git*"],
  ]),
  ...callRows({ permissions: { allow: ["Bash(*)", "Read"] }, approval: ASK_FALLBACK }, [
    ["Bash and Read rules do not cover MCP tools", "mcp_github_create_issue", issue, "ask"],
  ]),
  ...callRows({ permissions: { managed: { deny: ["mcp_github_*"] }, project: { allow: ["mcp_github_list_issues"] } }, approval: ALLOW_FALLBACK }, [
    ["a managed MCP deny beats a project allow", "mcp_github_list_issues", {}, "deny", "mcp_github_*", { layer: "managed" }],
  ]),
  ...callRows({ permissions: { deny: ["mcp_gitlab_*"] }, approval: {} }, [["an MCP tool no rule names asks by default", "mcp_github_list_issues", {}, "ask"]]),
  ...callRows({ permissions: { defaultMode: "plan" }, approval: ALLOW_FALLBACK }, [
    ["plan mode denies an MCP tool (not read-only)", "mcp_github_list_issues", {}, "deny", undefined, { layer: "mode" }],
  ]),
];

/** MCP rows (need the fixture servers). */
export const mcpCases: CaseGroup = { group: "mcp names", mcp: true, cases: mcpRows };
