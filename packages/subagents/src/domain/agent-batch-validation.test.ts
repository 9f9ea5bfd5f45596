import { describe, expect, it } from "vitest";
import { validateAgentBatch } from "./agent-batch-validation.js";
import { createIdentity, titleCase } from "./agent-identity.js";
import type { AgentPromptTemplate, SubagentIdentity, SubagentIssue } from "./subagent-types.js";

const NOW = 1_700_000_000_000;
const reviewer: AgentPromptTemplate = {
  id: "tpl-review",
  name: "Code Reviewer",
  description: "Reviews diffs for bugs",
  prompt: "Review carefully.",
  enabled: true,
};
const existing: SubagentIdentity = {
  id: "Scout",
  name: "Scout",
  role: "Explores the code",
  identityPrompt: "Be brief.",
  templateId: "tpl-review",
  lastMode: "worktree",
  createdAt: 1,
  updatedAt: 2,
};
const context = { roster: [existing], templates: [reviewer], now: NOW };

function issuesOf(input: unknown, extra: Partial<Parameters<typeof validateAgentBatch>[1]> = {}): SubagentIssue[] {
  const result = validateAgentBatch(input, { ...context, ...extra });
  if (result.ok) throw new Error("expected a rejection");
  return result.issues;
}
function entriesOf(input: unknown, extra: Partial<Parameters<typeof validateAgentBatch>[1]> = {}) {
  const result = validateAgentBatch(input, { ...context, ...extra });
  if (!result.ok) throw new Error(`unexpected issues: ${JSON.stringify(result.issues)}`);
  return result;
}

describe("validateAgentBatch: shape", () => {
  it("accepts a minimal call and applies the defaults", () => {
    const result = entriesOf({ agents: [{ id: "code-reviewer", prompt: "Review src/" }] });
    expect(result.concurrency).toBe(1);
    expect(result.entries).toEqual([
      {
        index: 0,
        identity: { id: "code-reviewer", name: "Code Reviewer", role: "Code Reviewer", identityPrompt: "", createdAt: NOW, updatedAt: NOW },
        isNew: true,
        prompt: "Review src/",
        mode: "readonly",
        applyPolicy: "none",
        allowedOutputPaths: [],
        resume: true,
        retainWorktree: false,
      },
    ]);
  });

  it("rejects a non-object input", () => {
    for (const input of [null, "agents", [], 3]) {
      const issues = issuesOf(input);
      expect(issues).toHaveLength(1);
      expect(issues[0]!.code).toBe("invalid_arguments");
    }
  });

  it("rejects unknown top-level keys, naming each and the allowed ones", () => {
    const issues = issuesOf({ agents: [{ id: "a", prompt: "p" }], mode: "worktree", timeout: 5 });
    expect(issues.map((issue) => issue.message)).toEqual([
      'Unknown Agent parameter "mode". Allowed parameters: "agents", "concurrency"; per-agent settings go inside each agents entry.',
      'Unknown Agent parameter "timeout". Allowed parameters: "agents", "concurrency"; per-agent settings go inside each agents entry.',
    ]);
    expect(issues.every((issue) => issue.agentId === undefined)).toBe(true);
  });

  it("rejects a missing, non-array or empty agents", () => {
    for (const input of [{}, { agents: {} }, { agents: [] }]) {
      expect(issuesOf(input)).toEqual([{ code: "invalid_arguments", message: '"agents" must be a non-empty array of {id, prompt} entries.' }]);
    }
  });

  it("rejects more than 8 agents and still reports the entries' own issues", () => {
    const agents = Array.from({ length: 9 }, (_, index) => ({ id: `a${index}`, prompt: "p" }));
    agents[3] = { id: "a3", prompt: "" };
    const issues = issuesOf({ agents });
    expect(issues[0]!.message).toBe("Too many agents: 9 (at most 8 per call). Split dependent work across sequential calls.");
    expect(issues[1]).toMatchObject({ code: "invalid_arguments", agentId: "a3" });
    expect(issues).toHaveLength(2);
  });

  it("accepts exactly 8 agents", () => {
    const agents = Array.from({ length: 8 }, (_, index) => ({ id: `a${index}`, prompt: "p" }));
    expect(entriesOf({ agents }).entries.map((entry) => entry.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("rejects an entry that is not an object", () => {
    expect(issuesOf({ agents: ["do it"] })).toEqual([
      { code: "invalid_arguments", message: 'agents[0] must be an object with at least "id" and "prompt" (got "do it").' },
    ]);
  });

  it("rejects unknown entry fields, listing the allowed ones", () => {
    const issues = issuesOf({ agents: [{ id: "a", prompt: "p", task: "x" }] });
    expect(issues).toEqual([
      {
        code: "invalid_arguments",
        agentId: "a",
        message:
          'Unknown field "task" in agents[0]. Allowed fields: "id", "prompt", "name", "role", "identity", "template", "mode", "apply_policy", "allowed_output_paths", "resume", "retain_worktree".',
      },
    ]);
  });

  it("checks the id pattern (1-64 characters, leading letter or digit)", () => {
    expect(entriesOf({ agents: [{ id: "a".repeat(64), prompt: "p" }] }).entries).toHaveLength(1);
    expect(entriesOf({ agents: [{ id: "9a._-Z", prompt: "p" }] }).entries).toHaveLength(1);
    for (const id of ["", "-a", ".a", "a b", "a/b", "a".repeat(65), "é"]) {
      const issues = issuesOf({ agents: [{ id, prompt: "p" }] });
      expect(issues).toHaveLength(1);
      expect(issues[0]!.message).toContain("agents[0].id must be 1-64 characters");
    }
    expect(issuesOf({ agents: [{ prompt: "p" }] })[0]!.message).toContain("(got undefined)");
    expect(issuesOf({ agents: [{ id: 7, prompt: "p" }] })[0]).toEqual({
      code: "invalid_arguments",
      message: 'agents[0].id must be 1-64 characters: a letter or digit, then letters, digits, ".", "_" or "-" (got 7).',
    });
  });

  it("rejects an empty, blank or missing prompt", () => {
    for (const prompt of ["", "  \n", undefined, 5]) {
      expect(issuesOf({ agents: [{ id: "a", prompt }] })).toEqual([
        { code: "invalid_arguments", agentId: "a", message: "agents[0].prompt must be a non-empty string: the task for this agent." },
      ]);
    }
  });

  it("rejects non-string name/role/identity/template and non-boolean resume/retain_worktree", () => {
    const issues = issuesOf({ agents: [{ id: "a", prompt: "p", name: 1, role: [], identity: {}, template: null, resume: "yes", retain_worktree: 0 }] });
    expect(issues.map((issue) => issue.message)).toEqual([
      "agents[0].name must be a string (got 1).",
      "agents[0].role must be a string (got an array).",
      "agents[0].identity must be a string (got an object).",
      "agents[0].template must be a string (got null).",
      'agents[0].resume must be true or false (got "yes").',
      "agents[0].retain_worktree must be true or false (got 0).",
    ]);
  });

  it("rejects duplicate ids case-insensitively, once per repeat", () => {
    const issues = issuesOf({
      agents: [
        { id: "Alpha", prompt: "p" },
        { id: "alpha", prompt: "p" },
        { id: "ALPHA", prompt: "p" },
      ],
    });
    expect(issues.map((issue) => [issue.code, issue.agentId])).toEqual([
      ["duplicate_agent_id", "alpha"],
      ["duplicate_agent_id", "ALPHA"],
    ]);
    expect(issues[0]!.message).toBe('Agent id "alpha" appears more than once in this call (ids are case-insensitive); give each agent its own id.');
  });

  it("collects every issue of every entry at once", () => {
    const issues = issuesOf({
      extra: true,
      agents: [
        { id: "ok", prompt: "p" },
        { id: "bad id", prompt: "" },
        { id: "t", prompt: "p", template: "nope", mode: "write" },
      ],
    });
    expect(issues.map((issue) => issue.code)).toEqual(["invalid_arguments", "invalid_arguments", "invalid_arguments", "invalid_arguments", "unknown_template"]);
  });
});

describe("validateAgentBatch: concurrency", () => {
  const agents = (count: number) => Array.from({ length: count }, (_, index) => ({ id: `a${index}`, prompt: "p" }));
  it("defaults to the number of agents (at most 8)", () => {
    expect(entriesOf({ agents: agents(3) }).concurrency).toBe(3);
    expect(entriesOf({ agents: agents(8) }).concurrency).toBe(8);
  });
  it("is min(n, clamp(floor(c), 1, 8))", () => {
    expect(entriesOf({ agents: agents(5), concurrency: 2 }).concurrency).toBe(2);
    expect(entriesOf({ agents: agents(5), concurrency: 2.9 }).concurrency).toBe(2);
    expect(entriesOf({ agents: agents(5), concurrency: 0 }).concurrency).toBe(1);
    expect(entriesOf({ agents: agents(5), concurrency: -3 }).concurrency).toBe(1);
    expect(entriesOf({ agents: agents(5), concurrency: 20 }).concurrency).toBe(5);
    expect(entriesOf({ agents: agents(2), concurrency: 6 }).concurrency).toBe(2);
  });
  it("rejects a non-number and still reports a concurrency", () => {
    const result = validateAgentBatch({ agents: agents(3), concurrency: "4" }, context);
    expect(result).toEqual({
      ok: false,
      concurrency: 3,
      issues: [{ code: "invalid_arguments", message: '"concurrency" must be an integer from 1 to 8 (got "4").' }],
    });
    expect(validateAgentBatch({ agents: agents(3), concurrency: Number.NaN }, context).ok).toBe(false);
    expect(validateAgentBatch({}, context).concurrency).toBe(1);
  });
});

describe("validateAgentBatch: templates and identity", () => {
  const disabled: AgentPromptTemplate = { id: "tpl-off", name: "Off", description: "", prompt: "x", enabled: false };

  it("resolves a template by id or name, case-insensitively, and derives name and role from it", () => {
    for (const ref of ["tpl-review", "TPL-REVIEW", "code reviewer", " Code Reviewer "]) {
      const [entry] = entriesOf({ agents: [{ id: "r1", prompt: "p", template: ref }] }).entries;
      expect(entry!.template).toBe(reviewer);
      expect(entry!.identity).toEqual({
        id: "r1",
        name: "Code Reviewer",
        role: "Reviews diffs for bugs",
        identityPrompt: "",
        templateId: "tpl-review",
        createdAt: NOW,
        updatedAt: NOW,
      });
    }
  });

  it("rejects a template that is not offered, listing the offered ones", () => {
    const issues = issuesOf({ agents: [{ id: "r1", prompt: "p", template: "tpl-off" }] }, { templates: [reviewer] });
    expect(issues).toEqual([
      {
        code: "unknown_template",
        agentId: "r1",
        message: 'Unknown template "tpl-off" in agents[0]. Offered templates (by id or name): "tpl-review" (Code Reviewer).',
      },
    ]);
    expect(issuesOf({ agents: [{ id: "r1", prompt: "p", template: "x" }] }, { templates: [] })[0]!.message).toBe(
      'Unknown template "x" in agents[0]. No templates are offered.',
    );
    // Passing a disabled template in the list is the caller's bug, but a blank template ref is simply "none".
    expect(entriesOf({ agents: [{ id: "r1", prompt: "p", template: "  " }] }, { templates: [disabled] }).entries[0]!.template).toBeUndefined();
  });

  it("prefers given name, role and identity over the template's", () => {
    const [entry] = entriesOf({
      agents: [{ id: "r1", prompt: "p", template: "tpl-review", name: " Rex ", role: "Nitpicker", identity: "Be strict." }],
    }).entries;
    expect(entry!.identity).toMatchObject({ name: "Rex", role: "Nitpicker", identityPrompt: "Be strict.", templateId: "tpl-review" });
  });

  it("falls back to the title-cased id, and role to the name", () => {
    const [entry] = entriesOf({ agents: [{ id: "db_migration.helper", prompt: "p", name: "" }] }).entries;
    expect(entry!.identity).toMatchObject({ name: "Db Migration Helper", role: "Db Migration Helper" });
    const [named] = entriesOf({ agents: [{ id: "x", prompt: "p", name: "Xavier" }] }).entries;
    expect(named!.identity.role).toBe("Xavier");
    const blankTemplate = { ...reviewer, name: " ", description: "" };
    const [fromBlank] = entriesOf({ agents: [{ id: "x-y", prompt: "p", template: "tpl-review" }] }, { templates: [blankTemplate] }).entries;
    expect(fromBlank!.identity).toMatchObject({ name: "X Y", role: "X Y" });
  });

  it("keeps an existing identity (canonical id case) and ignores equal creation fields", () => {
    const [entry] = entriesOf({
      agents: [{ id: "scout", prompt: "again", name: "Scout", role: "Explores the code", identity: "Be brief.", template: "Code Reviewer" }],
    }).entries;
    expect(entry!.isNew).toBe(false);
    expect(entry!.identity).toBe(existing);
    expect(entry!.template).toBe(reviewer);
    expect(entry!.mode).toBe("worktree");
  });

  it("reports identity_conflict listing every differing field", () => {
    const issues = issuesOf(
      { agents: [{ id: "SCOUT", prompt: "p", name: "Other", role: "Other role", identity: "Other.", template: "tpl-x" }] },
      {
        templates: [reviewer, { ...reviewer, id: "tpl-x", name: "X" }],
      },
    );
    expect(issues).toEqual([
      {
        code: "identity_conflict",
        agentId: "SCOUT",
        message:
          'Agent "Scout" already exists with a different name, role, identity, template. name, role, identity and template apply only when an id is created: omit them to resume "Scout", or use a new id.',
      },
    ]);
    expect(issuesOf({ agents: [{ id: "scout", prompt: "p", role: "Other role" }] })[0]!.message).toContain("with a different role.");
  });

  it("reports a template conflict when the existing identity has no template", () => {
    const plain: SubagentIdentity = { ...existing, id: "plain", templateId: undefined };
    expect(issuesOf({ agents: [{ id: "plain", prompt: "p", template: "tpl-review" }] }, { roster: [plain] })[0]!.message).toContain(
      "with a different template.",
    );
  });

  it("titleCase splits on - _ and .", () => {
    expect(titleCase("code-reviewer")).toBe("Code Reviewer");
    expect(titleCase("a--b__c..d")).toBe("A B C D");
    expect(titleCase("X1")).toBe("X1");
  });

  it("createIdentity treats blank template fields as absent", () => {
    const template = { id: "t", name: " ", description: " ", prompt: "p", enabled: true };
    expect(createIdentity("web-ui", { template }, 5)).toEqual({
      id: "web-ui",
      name: "Web Ui",
      role: "Web Ui",
      identityPrompt: "",
      templateId: "t",
      createdAt: 5,
      updatedAt: 5,
    });
  });
});

describe("validateAgentBatch: mode, apply policy and output paths", () => {
  it("resolves mode: explicit, else the identity's lastMode, else readonly", () => {
    expect(entriesOf({ agents: [{ id: "scout", prompt: "p", mode: "readonly" }] }).entries[0]!.mode).toBe("readonly");
    expect(entriesOf({ agents: [{ id: "scout", prompt: "p" }] }).entries[0]!.mode).toBe("worktree");
    expect(entriesOf({ agents: [{ id: "new", prompt: "p" }] }).entries[0]!.mode).toBe("readonly");
    expect(entriesOf({ agents: [{ id: "new", prompt: "p", mode: "worktree" }] }).entries[0]!.mode).toBe("worktree");
  });

  it("rejects an unknown mode or apply policy", () => {
    expect(issuesOf({ agents: [{ id: "a", prompt: "p", mode: "write" }] })[0]!.message).toBe('agents[0].mode must be "readonly" or "worktree" (got "write").');
    expect(issuesOf({ agents: [{ id: "a", prompt: "p", mode: "worktree", apply_policy: "always" }] })[0]!.message).toBe(
      'agents[0].apply_policy must be "none", "explicit" or "auto" (got "always").',
    );
  });

  it("forceReadonly: an explicit worktree is an issue, an omitted mode (even lastMode worktree) is readonly", () => {
    expect(issuesOf({ agents: [{ id: "a", prompt: "p", mode: "worktree" }] }, { forceReadonly: true })).toEqual([
      {
        code: "invalid_arguments",
        agentId: "a",
        message: 'agents[0].mode=worktree is not available in plan mode: agents can only read. Use mode "readonly" or omit mode.',
      },
    ]);
    expect(entriesOf({ agents: [{ id: "scout", prompt: "p" }] }, { forceReadonly: true }).entries[0]!.mode).toBe("readonly");
  });

  it("allows apply_policy other than none only with mode=worktree (explicit or inherited)", () => {
    expect(issuesOf({ agents: [{ id: "a", prompt: "p", apply_policy: "auto" }] })[0]!.message).toBe(
      'agents[0]: apply_policy is only valid with mode=worktree (this agent runs in mode=readonly); set mode "worktree" or drop apply_policy.',
    );
    expect(entriesOf({ agents: [{ id: "a", prompt: "p", apply_policy: "none" }] }).entries[0]!.applyPolicy).toBe("none");
    expect(entriesOf({ agents: [{ id: "a", prompt: "p", mode: "worktree", apply_policy: "auto" }] }).entries[0]!.applyPolicy).toBe("auto");
    expect(entriesOf({ agents: [{ id: "scout", prompt: "p", apply_policy: "auto" }] }).entries[0]!.applyPolicy).toBe("auto");
  });

  it("requires allowed_output_paths with explicit and explicit with allowed_output_paths", () => {
    expect(issuesOf({ agents: [{ id: "a", prompt: "p", mode: "worktree", apply_policy: "explicit" }] })[0]!.message).toBe(
      'agents[0]: apply_policy "explicit" requires allowed_output_paths with at least one path or glob.',
    );
    expect(issuesOf({ agents: [{ id: "a", prompt: "p", mode: "worktree", apply_policy: "explicit", allowed_output_paths: [] }] })).toHaveLength(1);
    expect(issuesOf({ agents: [{ id: "a", prompt: "p", mode: "worktree", apply_policy: "auto", allowed_output_paths: ["src"] }] })[0]!.message).toBe(
      'agents[0]: allowed_output_paths requires apply_policy "explicit".',
    );
    expect(issuesOf({ agents: [{ id: "a", prompt: "p", mode: "worktree", allowed_output_paths: ["src"] }] })[0]!.message).toBe(
      'agents[0]: allowed_output_paths requires apply_policy "explicit".',
    );
  });

  it("requires non-empty string output paths and deduplicates them", () => {
    const [entry] = entriesOf({
      agents: [{ id: "a", prompt: "p", mode: "worktree", apply_policy: "explicit", allowed_output_paths: ["src/**", " src/** ", "docs/a.md"] }],
    }).entries;
    expect(entry!.allowedOutputPaths).toEqual(["src/**", "docs/a.md"]);
    const issues = issuesOf({ agents: [{ id: "a", prompt: "p", mode: "worktree", apply_policy: "explicit", allowed_output_paths: ["ok", "", 3] }] });
    expect(issues.map((issue) => issue.message)).toEqual([
      'agents[0].allowed_output_paths[1] must be a non-empty string (got "").',
      "agents[0].allowed_output_paths[2] must be a non-empty string (got 3).",
    ]);
    expect(issuesOf({ agents: [{ id: "a", prompt: "p", mode: "worktree", apply_policy: "explicit", allowed_output_paths: "src" }] })[0]!.message).toBe(
      'agents[0].allowed_output_paths must be an array of workspace paths or globs (got "src").',
    );
  });

  it("rejects an output path with a .. segment anywhere, also after a glob or with \\ separators", () => {
    const patterns = ["**/../x", "../README.md", "src/**/../../README.md", "src/..", "..\\lib\\b.ts", "a/ .. /b"];
    const issues = issuesOf({ agents: [{ id: "a", prompt: "p", mode: "worktree", apply_policy: "explicit", allowed_output_paths: ["src/**", ...patterns] }] });
    expect(issues.map((issue) => issue.code)).toEqual(patterns.map(() => "output_path_outside_workspace"));
    expect(issues[0]).toEqual({
      code: "output_path_outside_workspace",
      agentId: "a",
      message:
        'agents[0].allowed_output_paths[1] "**/../x" has a ".." segment: output paths are relative to the workspace and stay inside it. Name the files or folders inside the workspace (e.g. "src/**" or "docs").',
    });
    // Dots that are not a whole segment are names.
    const [entry] = entriesOf({
      agents: [{ id: "a", prompt: "p", mode: "worktree", apply_policy: "explicit", allowed_output_paths: ["a..b/**", "..x", ".../y"] }],
    }).entries;
    expect(entry!.allowedOutputPaths).toEqual(["a..b/**", "..x", ".../y"]);
  });

  it("reads resume and retain_worktree", () => {
    const [entry] = entriesOf({ agents: [{ id: "a", prompt: "p", mode: "worktree", resume: false, retain_worktree: true }] }).entries;
    expect(entry).toMatchObject({ resume: false, retainWorktree: true });
  });
});
