/** The applier fed by the parser: patch text as models send it, through `parseV4APatch`. */
import { type PatchUpdateFile, parseV4APatch } from "@agent-tools/core/patch";
import { describe, expect, it } from "vitest";
import { applyPatchHunks } from "./apply-patch-hunks.js";
import { PatchHunkError } from "./patch-hunk-error.js";

/** Applies the one Update operation of `patch` to `file`. */
function applyText(file: string, patch: string) {
  const operation = parseV4APatch(patch).operations[0] as PatchUpdateFile;
  const result = applyPatchHunks(Buffer.from(file, "utf8"), operation.hunks, { displayPath: operation.path });
  return { text: Buffer.concat(result.pieces).toString("utf8"), hunks: result.hunks };
}

const PYTHON = `import os


class Greeter:
    def __init__(self, name):
        self.name = name

    def greet(self):
        print(f"Hello, {self.name}")
        return True


class Farewell:
    def __init__(self, name):
        self.name = name

    def greet(self):
        print(f"Bye, {self.name}")
        return True
`;

describe("patch text from the parser", () => {
  it("a Codex-style patch: nested @@ anchors pick the second class's method, a second hunk follows", () => {
    const patch = `*** Begin Patch
*** Update File: greet.py
@@ class Farewell:
@@     def greet(self):
-        print(f"Bye, {self.name}")
-        return True
+        print(f"Goodbye, {self.name}")
+        return False
*** End Patch`;
    const result = applyText(PYTHON, patch);
    expect(result.text).toBe(PYTHON.replace('print(f"Bye, {self.name}")\n        return True', 'print(f"Goodbye, {self.name}")\n        return False'));
    expect(result.hunks).toEqual([{ hunk: 1, matchStrategy: "exact", startLine: 18 }]);
  });

  it("the first hunk without @@, 3 lines of context, and a second hunk after it", () => {
    const patch = `*** Begin Patch
*** Update File: greet.py
 import os
+import sys
 
 
@@ class Farewell:
     def __init__(self, name):
-        self.name = name
+        self.name = name.title()
 
*** End Patch`;
    const result = applyText(PYTHON, patch);
    const expected = PYTHON.replace("import os\n", "import os\nimport sys\n").replace(
      /(class Farewell:\n {4}def __init__\(self, name\):\n {8}self\.name = )name/,
      "$1name.title()",
    );
    expect(result.text).toBe(expected);
    expect(result.hunks.map((hunk) => [hunk.matchStrategy, hunk.startLine])).toEqual([
      ["exact", 1],
      ["exact", 14],
    ]);
  });

  it("a heredoc-wrapped CRLF patch on a CRLF file: added lines in CRLF", () => {
    const file = "one\r\ntwo\r\nthree\r\n";
    const patch = "apply_patch <<'EOF'\r\n*** Begin Patch\r\n*** Update File: n.txt\r\n@@\r\n one\r\n-two\r\n+2\r\n+2.5\r\n three\r\n*** End Patch\r\nEOF\r\n";
    const result = applyText(file, patch);
    expect(result.text).toBe("one\r\n2\r\n2.5\r\nthree\r\n");
    expect(result.hunks[0]!.matchStrategy).toBe("line-endings");
  });

  it("*** End of File: the hunk applies to the end, not to an equal block earlier", () => {
    const file = "}\n\nexport default a;\n}\n\nexport default a;\n";
    const patch = "*** Begin Patch\n*** Update File: m.ts\n@@\n }\n \n-export default a;\n+export default b;\n*** End of File\n*** End Patch";
    expect(applyText(file, patch).text).toBe("}\n\nexport default a;\n}\n\nexport default b;\n");
  });

  it("a blank line inside a hunk is an empty context line", () => {
    const file = "a();\n\nb();\n";
    const patch = "*** Begin Patch\n*** Update File: x.js\n@@\n a();\n\n-b();\n+c();\n*** End Patch";
    expect(applyText(file, patch).text).toBe("a();\n\nc();\n");
  });

  it("a trailing empty context line that is not in the file is dropped on a second try (as Codex)", () => {
    const file = "first\nlast\n";
    const patch = "*** Begin Patch\n*** Update File: x.txt\n@@\n first\n-last\n+LAST\n \n*** End Patch";
    expect(applyText(file, patch).text).toBe("first\nLAST\n");
  });

  it("a hunk that does not apply names the patch line of its @@", () => {
    const patch = "*** Begin Patch\n*** Update File: greet.py\n@@ class Greeter:\n-    def wave(self):\n+    def wave(self, times):\n*** End Patch";
    let error: unknown;
    try {
      applyText(PYTHON, patch);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PatchHunkError);
    expect((error as PatchHunkError).details).toMatchObject({ path: "greet.py", hunk: 1, patchLine: 3 });
    expect((error as PatchHunkError).message).toContain("hunk 1 of greet.py (patch line 3)");
  });
});
