import { describe, expect, it } from "vitest";
import { ToolError } from "../errors.js";
import { parseV4APatch, patchTargetsOf } from "./parse-v4a.js";
import { type ResponsesApplyPatchOperation, applyPatchOperationToV4A } from "./responses-apply-patch.js";

function refusal(operation: unknown): ToolError {
  try {
    applyPatchOperationToV4A(operation as ResponsesApplyPatchOperation);
  } catch (error) {
    if (error instanceof ToolError) return error;
    throw error;
  }
  throw new Error("accepted");
}

describe("applyPatchOperationToV4A", () => {
  it("turns create_file into an Add File section whose lines are the diff's + lines", () => {
    const text = applyPatchOperationToV4A({ type: "create_file", path: "src/new.ts", diff: "+export const a = 1;\n+\n+  b();\n" });
    expect(text).toBe("*** Begin Patch\n*** Add File: src/new.ts\n+export const a = 1;\n+\n+  b();\n*** End Patch\n");
    expect(parseV4APatch(text).operations).toEqual([{ kind: "add", path: "src/new.ts", lines: ["export const a = 1;", "", "  b();"], patchLine: 2 }]);
  });

  it("turns update_file into an Update File section whose body is the diff's hunks", () => {
    const diff = "@@ class App\n   run() {\n-    stop();\n+    finish();\n@@\n tail\n+more\n*** End of File\n";
    const text = applyPatchOperationToV4A({ type: "update_file", path: "src/app.ts", diff });
    expect(text).toBe(`*** Begin Patch\n*** Update File: src/app.ts\n${diff}*** End Patch\n`);
    const [operation] = parseV4APatch(text).operations;
    expect(operation).toMatchObject({
      kind: "update",
      path: "src/app.ts",
      hunks: [
        {
          anchors: ["class App"],
          lines: [
            { kind: "context", text: "  run() {" },
            { kind: "remove", text: "    stop();" },
            { kind: "add", text: "    finish();" },
          ],
          endOfFile: false,
        },
        {
          anchors: [],
          lines: [
            { kind: "context", text: "tail" },
            { kind: "add", text: "more" },
          ],
          endOfFile: true,
        },
      ],
    });
  });

  it("takes a diff without a final newline, with CRLF, and a hunk without @@", () => {
    expect(applyPatchOperationToV4A({ type: "update_file", path: "a.txt", diff: " x\r\n-y\r\n+z" })).toBe(
      "*** Begin Patch\n*** Update File: a.txt\n x\n-y\n+z\n*** End Patch\n",
    );
  });

  it("turns delete_file into a Delete File section (any diff is ignored)", () => {
    expect(applyPatchOperationToV4A({ type: "delete_file", path: "old.txt" })).toBe("*** Begin Patch\n*** Delete File: old.txt\n*** End Patch\n");
    expect(applyPatchOperationToV4A({ type: "delete_file", path: "old.txt", diff: null })).toBe("*** Begin Patch\n*** Delete File: old.txt\n*** End Patch\n");
  });

  it("refuses a diff line that would start another file's section, so one call changes one file", () => {
    const smuggled = { type: "update_file", path: "a.txt", diff: "-x\n+y\n*** Update File: other.txt\n-1\n+2\n" };
    const error = refusal(smuggled);
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain('line 3 of the diff ("*** Update File: other.txt") does not fit');
    expect(error.details).toEqual({ path: "a.txt", operation: "update_file", diffLine: 3 });
    for (const header of ["*** Move to: b.txt", "*** Delete File: c", "*** Add File: d", "*** End Patch", "*** Begin Patch"]) {
      expect(refusal({ type: "update_file", path: "a.txt", diff: `${header}\n-x\n+y\n` }).details.diffLine).toBe(1);
    }
    expect(refusal({ type: "create_file", path: "a.txt", diff: "+x\n*** Delete File: b.txt\n" }).details.diffLine).toBe(2);
  });

  it("refuses a create_file line without +, naming the diff's line", () => {
    const error = refusal({ type: "create_file", path: "n.txt", diff: "+a\nb\n" });
    expect(error.message).toBe(
      'apply_patch: create_file n.txt: line 2 of the diff ("b") does not fit: every line of a new file\'s diff starts with "+". Send the diff of this one file again.',
    );
  });

  it("refuses an operation no patch expresses: unknown type, bad path, no diff, no hunk line", () => {
    expect(refusal({ type: "rename_file", path: "a" }).message).toContain('unknown operation type "rename_file"');
    expect(refusal({ type: "delete_file", path: "  " }).message).toContain("needs the file's path on one line");
    expect(refusal({ type: "delete_file", path: "a\n*** Delete File: b" }).details).toMatchObject({ operation: "delete_file" });
    expect(refusal({ type: "update_file", path: "a" }).message).toContain("update_file a has no diff");
    expect(refusal({ type: "update_file", path: "a", diff: "@@ f\n" }).message).toContain("the diff has no hunk line");
  });

  it("keeps the path as written, so permission rules judge exactly the one path", () => {
    const text = applyPatchOperationToV4A({ type: "update_file", path: "../outside.txt", diff: "-a\n+b\n" });
    expect(patchTargetsOf(text)).toEqual([{ path: "../outside.txt", kind: "update" }]);
  });
});
