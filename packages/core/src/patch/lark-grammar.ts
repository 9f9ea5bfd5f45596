/**
 * The V4A patch format as a Lark grammar, for providers that constrain a
 * free-form tool's input with one (the OpenAI Responses API's custom tools:
 * `format: { type: "grammar", syntax: "lark", definition }`).
 *
 * It accepts the same language as the grammar Codex registers its
 * `apply_patch` tool with; it is written differently in one respect: no
 * terminal matches the empty string (an optional `TEXT` stands for "any
 * rest of the line, maybe none"), because Lark's Earley parser refuses
 * zero-width terminals. Checked with Lark itself in lark-grammar.test.ts.
 */

/**
 * The Lark grammar of a V4A patch: `*** Begin Patch`, one or more file
 * operations (`*** Add File:` with `+` lines, `*** Delete File:`,
 * `*** Update File:` with an optional `*** Move to:` and hunk lines: `@@`
 * anchors, ` ` context, `-` removed and `+` added lines, an optional
 * `*** End of File`), `*** End Patch`. Lines end with `\n`.
 *
 * Stricter than `parseV4APatch`, which also takes CRLF, a heredoc
 * wrapper and blank lines: a model constrained by the grammar sends what
 * the parser reads without its leniency.
 *
 * @example
 * const tool = {
 *   type: "custom",
 *   name: "ApplyPatch",
 *   description: "Edit files with a V4A patch.",
 *   format: { type: "grammar", syntax: "lark", definition: V4A_LARK_GRAMMAR },
 * };
 */
export const V4A_LARK_GRAMMAR = `start: "*** Begin Patch" LF file_operation+ "*** End Patch" LF?
file_operation: add_file | delete_file | update_file
add_file: "*** Add File: " path LF new_line+
delete_file: "*** Delete File: " path LF
update_file: "*** Update File: " path LF move_to? hunk_lines?
move_to: "*** Move to: " path LF
hunk_lines: (anchor | diff_line)+ end_of_file?
anchor: "@@" (" " TEXT)? LF
diff_line: ("+" | "-" | " ") TEXT? LF
new_line: "+" TEXT? LF
end_of_file: "*** End of File" LF
path: TEXT
TEXT: /.+/
%import common.LF
`;
