import { describe, expect, it } from "vitest";
import { editDiffLines, editMatchStrategy, parseUnifiedDiff } from "../src/page/details/edit-diff.js";
import { formatResultText, isMcpTool } from "../src/page/details/result-text.js";
import { revealInvisible } from "../src/page/details/reveal-invisible.js";
import { changedTaskId, taskViews } from "../src/page/details/task-view.js";

describe("editDiffLines", () => {
  it("computes a line diff from old_string and new_string, ignoring CRLF and the final newline", () => {
    expect(editDiffLines({ old_string: "a\r\nb\r\nc", new_string: "a\nB\nc\n" }, { matchStrategy: "line-endings" })).toEqual([
      { kind: "context", text: "a" },
      { kind: "remove", text: "b" },
      { kind: "add", text: "B" },
      { kind: "context", text: "c" },
    ]);
  });

  it("prefers a unified diff in the details", () => {
    const diff = "--- a/x.ts\n+++ b/x.ts\n@@ -1,2 +1,2 @@\n keep\n-old\n+new\n\\ No newline at end of file\n";
    expect(editDiffLines({ old_string: "zzz", new_string: "yyy" }, { diff })).toEqual([
      { kind: "hunk", text: "@@ -1,2 +1,2 @@" },
      { kind: "context", text: "keep" },
      { kind: "remove", text: "old" },
      { kind: "add", text: "new" },
    ]);
    expect(parseUnifiedDiff("")).toEqual([{ kind: "context", text: "" }]);
  });

  it("is empty without the texts and caps a huge diff with a summary line", () => {
    expect(editDiffLines({ path: "x" }, undefined)).toEqual([]);
    const oldText = Array.from({ length: 600 }, (_, index) => `line ${index}`).join("\n");
    const lines = editDiffLines({ old_string: oldText, new_string: "" }, undefined);
    expect(lines).toHaveLength(401);
    expect(lines.at(-1)).toEqual({ kind: "context", text: "… 200 more diff lines" });
  });

  it("reads the match strategy", () => {
    expect(editMatchStrategy({ kind: "edit", matchStrategy: "indentation" })).toBe("indentation");
    expect(editMatchStrategy({})).toBeUndefined();
  });
});

describe("taskViews", () => {
  it("reads the task list and the changed task", () => {
    const details = {
      kind: "task_list",
      action: "updated",
      taskId: "2",
      tasks: [
        { id: "1", subject: "Parse", description: "", activeForm: "Parsing", status: "completed" },
        { id: "2", subject: "Render", description: "", activeForm: "Rendering", status: "in_progress" },
      ],
    };
    expect(taskViews(details)).toEqual([
      { id: "1", subject: "Parse", status: "completed", activeForm: "Parsing" },
      { id: "2", subject: "Render", status: "in_progress", activeForm: "Rendering" },
    ]);
    expect(changedTaskId(details)).toBe("2");
    expect(taskViews({ code: "x" })).toBeUndefined();
  });
});

describe("formatResultText", () => {
  it("pretty-prints JSON text, keeps other text, and shows MCP structured content when the text is empty", () => {
    expect(formatResultText('{"a":[1,2]}', undefined)).toEqual({ format: "json", text: '{\n  "a": [\n    1,\n    2\n  ]\n}' });
    expect(formatResultText("{ not json", undefined)).toEqual({ format: "text", text: "{ not json" });
    expect(formatResultText("", { mcp: { structuredContent: { ok: true } } })).toEqual({ format: "json", text: '{\n  "ok": true\n}' });
    expect(isMcpTool("mcp_docs_search")).toBe(true);
    expect(isMcpTool("Read")).toBe(false);
  });
});

describe("revealInvisible", () => {
  it("shows bidi controls and zero-width characters as escapes, and leaves other text alone", () => {
    // "rm -rf /tmp/\u202Egpj.x" displays as "rm -rf /tmp/x.jpg" when the override is invisible.
    expect(revealInvisible('{"command": "rm -rf /tmp/\u202egpj.x"}')).toBe('{"command": "rm -rf /tmp/\\u{202E}gpj.x"}');
    expect(revealInvisible("a\u200bb\u2066c\u2069d\ufeff\u061c")).toBe("a\\u{200B}b\\u{2066}c\\u{2069}d\\u{FEFF}\\u{061C}");
    expect(revealInvisible("plain ünïcode 日本 ✓")).toBe("plain ünïcode 日本 ✓");
  });
});
