/**
 * Path rules on the file tools: the anchors (`/path` project-relative,
 * `//abs`, `~/`, `root://alias/`, `./path` and `path` workdir-relative, no
 * slash = that name at any depth), `*` within one folder and `**` across,
 * and which tools a rule covers (`Read` -> Read, Image, List, Glob, Grep;
 * `Edit` -> Write, Edit, Delete; any other name -> itself only).
 * The fixture tree is described in ../fixture-tree.ts.
 */
import { callRows } from "./case-builders.js";
import { ALLOW_FALLBACK, ASK_FALLBACK, type ApprovalData, type CaseGroup } from "./case-types.js";

/** Every read-only file tool asks unless a rule allows it. */
const READS_ASK: ApprovalData = { policies: { Read: "ask", Image: "ask", List: "ask", Glob: "ask", Grep: "ask" }, defaultDecision: "ask" };
const read = (path: string) => ({ path });
const edited = (name: string) => ({ files: { [name]: "hello\n" } });

const anyDepth = callRows({ permissions: { deny: ["Read(.env)"] }, approval: ALLOW_FALLBACK }, [
  ["no-slash name: at the root", "Read", read(".env"), "deny", "Read(.env)"],
  ["no-slash name: one folder down", "Read", read("src/.env"), "deny", "Read(.env)"],
  ["no-slash name: in another folder", "Read", read("config/.env"), "deny", "Read(.env)"],
  ["no-slash name: written with ./", "Read", read("./.env"), "deny", "Read(.env)"],
  ["no-slash name: given as an absolute path", "Read", read("{work}/.env"), "deny", "Read(.env)"],
  ["no-slash name: a longer name does not match", "Read", read("src/config/.env.local"), "allow"],
  ["no-slash name: covers Grep of the file", "Grep", { pattern: "SECRET", path: ".env" }, "deny", "Read(.env)"],
  ["no-slash name: covers Image of the file", "Image", read("config/.env"), "deny", "Read(.env)"],
  ["no-slash name: a walk of a folder that may hold one is denied", "Grep", { pattern: "SECRET", path: "docs" }, "deny", "Read(.env)"],
  ["no-slash name: List of a folder holding one", "List", read("src"), "deny", "Read(.env)"],
  ["no-slash name: Glob of the workdir", "Glob", { pattern: "**/*" }, "deny", "Read(.env)"],
  ["no-slash name: a Read rule does not cover Write", "Write", { path: "made-{n}.env", content: "x" }, "allow"],
  [
    "'..' in the input is never a way around a deny",
    "Read",
    read("src/../.env"),
    "deny",
    undefined,
    { open: "a '..' input (which the tool refuses) decided as deny by the lexical path" },
  ],
]);

const pemGlob = callRows({ permissions: { deny: ["Read(*.pem)"] }, approval: ALLOW_FALLBACK }, [
  ["'*.pem' at any depth: one folder down", "Read", read("secrets/key.pem"), "deny", "Read(*.pem)"],
  ["'*.pem' at any depth: two folders down", "Read", read("secrets/nested/id.pem"), "deny", "Read(*.pem)"],
  ["'*.pem' does not match another suffix", "Read", read("README.md"), "allow"],
  ["'*.pem' covers Glob of a folder holding one", "Glob", { pattern: "*", path: "secrets" }, "deny", "Read(*.pem)"],
]);

const oneStar = callRows({ permissions: { deny: ["Read(secrets/*)"] }, approval: ALLOW_FALLBACK }, [
  ["'*' matches a file in the folder", "Read", read("secrets/key.pem"), "deny", "Read(secrets/*)"],
  ["'*' does not cross into a subfolder", "Read", read("secrets/nested/id.pem"), "allow"],
]);

const twoStars = callRows({ permissions: { deny: ["Read(secrets/**)"] }, approval: ALLOW_FALLBACK }, [
  ["'**' matches a file in the folder", "Read", read("secrets/key.pem"), "deny", "Read(secrets/**)"],
  ["'**' crosses folders", "Read", read("secrets/nested/id.pem"), "deny", "Read(secrets/**)"],
  ["'**' through a symlinked folder (canonical path)", "Read", read("src/link-secrets/key.pem"), "deny", "Read(secrets/**)"],
  ["'**' covers List of the folder", "List", read("secrets"), "deny", "Read(secrets/**)"],
  ["'**' covers Grep of the folder", "Grep", { pattern: "KEY", path: "secrets" }, "deny", "Read(secrets/**)"],
  ["'**' covers Glob of a subfolder", "Glob", { pattern: "*.pem", path: "secrets/nested" }, "deny", "Read(secrets/**)"],
  ["'**' covers a walk of the workdir", "Grep", { pattern: "KEY" }, "deny", "Read(secrets/**)"],
  ["a walk of a folder that cannot hold a match", "List", read("docs"), "allow"],
  ["a sibling name does not match", "Read", read("README.md"), "allow"],
  ["workdir-relative: not the same path deeper down", "Read", read("src/deep/c.ts"), "allow"],
  ["different case", "Read", read("SECRETS/key.pem"), "allow", undefined, { expectedCaseInsensitive: "deny" }],
]);

const anchors = callRows(
  {
    permissions: {
      deny: ["Read(/config/**)", "Read(./docs/guide.md)", "Read(/{out}/**)", "Read(/{work}/build/**)", "Read(~/.ssh/**)", "Read(root://shared/private/**)"],
    },
    approval: ALLOW_FALLBACK,
  },
  [
    ["'/path' is relative to the project root", "Read", read("config/app.json"), "deny", "Read(/config/**)"],
    ["'/path' is not matched at depth", "Read", read("src/config/.env.local"), "allow"],
    ["'./path' is relative to the workdir", "Read", read("docs/guide.md"), "deny", "Read(./docs/guide.md)"],
    ["'./path' matches an input written with ./", "Read", read("./docs/guide.md"), "deny", "Read(./docs/guide.md)"],
    ["'./path' does not match a neighbour", "Read", read("docs/api/ref.md"), "allow"],
    ["'//abs' matches an absolute input", "Read", read("{out}/secret.txt"), "deny", "Read(/{out}/**)"],
    ["'//abs' matches through a symlink inside the workdir", "Read", read("src/link-out"), "deny", "Read(/{out}/**)"],
    ["'//abs' naming a folder of the workdir", "Read", read("build/out.js"), "deny", "Read(/{work}/build/**)"],
    ["'~/' matches a ~/ input", "Read", read("~/.ssh/id_rsa"), "deny", "Read(~/.ssh/**)"],
    ["'~/' matches the absolute home path", "Read", read("{home}/.ssh/config"), "deny", "Read(~/.ssh/**)"],
    ["'root://' matches a root:// input", "Read", read("root://shared/private/p.txt"), "deny", "Read(root://shared/private/**)"],
    ["'root://' matches the root's absolute path", "Read", read("{extra}/private/p.txt"), "deny", "Read(root://shared/private/**)"],
    ["'root://' does not match elsewhere in the root", "Read", read("root://shared/a.txt"), "allow"],
    ["'root://' covers List of the folder", "List", read("root://shared/private"), "deny", "Read(root://shared/private/**)"],
  ],
);

const dotDot = callRows({ permissions: { deny: ["Read(../out/*.md)"] }, approval: ALLOW_FALLBACK }, [
  [
    "'../' in a rule names a folder beside the workdir",
    "Read",
    read("{out}/notes.md"),
    "deny",
    "Read(../out/*.md)",
    { open: "a rule with '..' accepted as a path outside the workdir" },
  ],
  ["'../' in a rule: another name there", "Read", read("{out}/secret.txt"), "allow"],
]);

const editCovers = callRows({ permissions: { allow: ["Edit(src/**)"] }, approval: ASK_FALLBACK }, [
  ["Edit rule allows Write", "Write", { path: "src/new-{n}.ts", content: "x" }, "allow", "Edit(src/**)"],
  [
    "Edit rule allows Edit",
    "Edit",
    { path: "src/edit-{n}.ts", old_string: "hello", new_string: "bye" },
    "allow",
    "Edit(src/**)",
    { setup: edited("src/edit-{n}.ts") },
  ],
  ["Edit rule allows Delete", "Delete", { path: "src/del-{n}.txt" }, "allow", "Edit(src/**)", { setup: edited("src/del-{n}.txt") }],
  ["Edit rule with '**' allows deep paths", "Write", { path: "src/deep/deeper/new-{n}.ts", content: "x" }, "allow", "Edit(src/**)"],
  ["Edit rule matches an input written with ./", "Write", { path: "./src/dot-{n}.ts", content: "x" }, "allow", "Edit(src/**)"],
  ["Edit rule does not allow outside its folder", "Write", { path: "docs/new-{n}.md", content: "x" }, "ask"],
  ["Edit rule: a link in src to a file outside src", "Write", { path: "src/link-env", content: "x" }, "ask"],
  ["Edit rule: a link in src to a file outside the workdir", "Edit", { path: "src/link-out", old_string: "a", new_string: "b" }, "ask"],
  ["Edit rule: an absolute path elsewhere", "Write", { path: "{out}/new-{n}.txt", content: "x" }, "ask"],
  ["Edit rule does not cover Read", "Read", read("docs/guide.md"), "allow"],
  ["Edit rule in another case", "Write", { path: "SRC/new-{n}.ts", content: "x" }, "ask", undefined, { expectedCaseInsensitive: "allow" }],
]);

const editOneStar = callRows({ permissions: { allow: ["Edit(src/*)"] }, approval: ASK_FALLBACK }, [
  ["Edit(src/*) allows a file in src", "Write", { path: "src/one-{n}.ts", content: "x" }, "allow", "Edit(src/*)"],
  ["Edit(src/*) does not allow a deeper file", "Write", { path: "src/deep/one-{n}.ts", content: "x" }, "ask"],
]);

const editDeny = callRows(
  { permissions: { deny: ["Edit(.env)", "Write(build/**)", "Delete", "Grep(secrets/**)", "Image(*.png)"] }, approval: ALLOW_FALLBACK },
  [
    ["Edit deny covers Write", "Write", { path: ".env", content: "x" }, "deny", "Edit(.env)"],
    ["Edit deny covers Edit", "Edit", { path: "config/.env", old_string: "A", new_string: "B" }, "deny", "Edit(.env)"],
    ["Edit deny covers Delete (and Delete's own rule)", "Delete", { path: "src/.env" }, "deny"],
    ["Edit deny does not cover Read", "Read", read(".env"), "allow"],
    ["Write rule covers Write", "Write", { path: "build/new-{n}.js", content: "x" }, "deny", "Write(build/**)"],
    [
      "Write rule does not cover Edit",
      "Edit",
      { path: "build/e-{n}.js", old_string: "hello", new_string: "bye" },
      "allow",
      undefined,
      { setup: edited("build/e-{n}.js") },
    ],
    ["a bare Delete rule covers every Delete", "Delete", { path: "docs/d-{n}.md" }, "deny", "Delete", { setup: edited("docs/d-{n}.md") }],
    ["a bare Delete rule does not cover Write", "Write", { path: "docs/w-{n}.md", content: "x" }, "allow"],
    ["Grep rule covers Grep", "Grep", { pattern: "KEY", path: "secrets" }, "deny", "Grep(secrets/**)"],
    ["Grep rule does not cover Read", "Read", read("secrets/key.pem"), "allow"],
    ["Image rule covers Image", "Image", read("docs/logo.png"), "deny", "Image(*.png)"],
    ["Image rule does not cover Read", "Read", read("docs/logo.png"), "allow"],
  ],
);

const readAllows = callRows({ permissions: { allow: ["Read(src/**)"] }, approval: READS_ASK }, [
  ["Read allow covers Read", "Read", read("src/a.ts"), "allow", "Read(src/**)"],
  ["Read allow covers Grep of the folder", "Grep", { pattern: "foo", path: "src" }, "allow", "Read(src/**)"],
  ["Read allow covers Glob of a subfolder", "Glob", { pattern: "*.ts", path: "src/deep" }, "allow", "Read(src/**)"],
  ["Read allow covers List of the folder", "List", read("src"), "allow", "Read(src/**)"],
  ["Read allow covers Image", "Image", read("src/a.ts"), "allow", "Read(src/**)"],
  ["Read allow does not cover a walk of the workdir", "Grep", { pattern: "foo" }, "ask"],
  ["Read allow does not cover another folder", "List", read("docs"), "ask"],
  ["Read allow: a link in src to a file outside it", "Read", read("src/link-env"), "ask"],
  ["Read allow: a link in src to a file outside the workdir", "Read", read("src/link-out"), "ask"],
  ["Read allow: a link elsewhere into src", "Read", read("docs/link-src/a.ts"), "allow", "Read(src/**)"],
]);

/** Path rule rows. */
export const pathCases: CaseGroup = {
  group: "path rules",
  cases: [...anyDepth, ...pemGlob, ...oneStar, ...twoStars, ...anchors, ...dotDot, ...editCovers, ...editOneStar, ...editDeny, ...readAllows],
};
