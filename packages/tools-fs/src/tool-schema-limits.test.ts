import type { JsonSchemaObject, ToolDefinition } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { createFsToolBundle } from "./fs-tool-bundle.js";
import { MAX_IMAGE_SOURCES } from "./image/image-sources.js";
import { ARCHIVE_ENTRY_LIMIT } from "./read/read-archive.js";
import { READ_MAX_CHARS } from "./shared/text-window.js";
import { GREP_LINE_CHARS } from "./search/grep-result.js";
import { MAX_IMAGE_BYTES } from "./shared/image-data.js";
import { AUTO_READ_LINE_LIMIT } from "./write/auto-prime.js";
import { MAX_EDITS } from "./edit/edit-form.js";

// The descriptions are kept short (every token is paid on every model call),
// but each limit and rule the model needs must survive: stated in the text the
// model reads, or carried by the JSON Schema. A default is asserted in the
// text as well as in the schema, because OpenAI's strict mode drops `default`.

const tools = new Map(
  createFsToolBundle()
    .listTools()
    .map((tool) => [tool.name, tool]),
);

function tool(name: string): ToolDefinition {
  const found = tools.get(name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

type PropertySchema = JsonSchemaObject & { default?: unknown; minimum?: number; maximum?: number; minItems?: number; maxItems?: number; enum?: unknown[] };

function property(name: string, key: string): PropertySchema {
  const properties = tool(name).jsonSchema.properties as Record<string, PropertySchema>;
  const found = properties[key];
  if (!found) throw new Error(`${name} has no parameter ${key}`);
  return found;
}

/** The tool's description, then each parameter's, as the model reads them. */
function text(name: string): string {
  const properties = tool(name).jsonSchema.properties as Record<string, PropertySchema>;
  return [tool(name).description, ...Object.entries(properties).map(([key, schema]) => `${key}: ${String(schema.description ?? "")}`)].join("\n");
}

/** The description of one parameter. */
const described = (name: string, key: string): string => String(property(name, key).description ?? "");

const WORKSPACE_PATHS = /workspace-relative.*root:\/\/<alias>\/.*absolute/is;

describe("limits and rules the file tools' schemas still state", () => {
  it("Read: the text window, its default and cap, 1-based ranges, paging, formats and read-before-edit", () => {
    expect(property("Read", "limit")).toMatchObject({ default: 200, minimum: 1 });
    expect(described("Read", "limit")).toContain("default 200");
    for (const key of ["start_line", "page_start", "cell_start"]) {
      expect(property("Read", key)).toMatchObject({ default: 1, minimum: 1 });
      expect(described("Read", key)).toContain("1-based");
    }
    expect(property("Read", "page_limit").default).toBe(5);
    expect(described("Read", "page_limit")).toContain("default 5");
    expect(property("Read", "cell_limit").default).toBe(20);
    expect(described("Read", "cell_limit")).toContain("default 20");
    const read = text("Read");
    expect(read).toContain(`${READ_MAX_CHARS / 1024} KB`);
    expect(read).toContain("start_line=<next line>");
    expect(read).toContain('"unchanged"');
    expect(read).toContain(`${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
    expect(read).toContain(`first ${ARCHIVE_ENTRY_LIMIT} entries`);
    expect(read).toMatch(/Binary files are refused/);
    expect(read).toContain("Read a file before you Write or Edit it");
    expect(read).toMatch(/skill:\/\/<skill>/);
    expect(read).toMatch(/Images \(png, jpg, gif, webp, avif, bmp, svg, ico;/);
    expect(read).toMatch(/PDFs as text by page, \.docx\/\.xlsx\/\.xlsm\/\.xltx\/\.xltm as text \(a section per sheet\), notebooks by cell/);
    expect(read).toMatch(/archives \(zip, jar, tar, tar\.gz\)/);
    expect(described("Read", "path")).toMatch(/uploaded file's absolute path/);
    expect(described("Read", "path")).toMatch(WORKSPACE_PATHS);
  });

  it("Image: at most 12 sources, the kinds, URLs never downloaded, the size cap", () => {
    const image = text("Image");
    expect(image).toContain(`up to ${MAX_IMAGE_SOURCES} images`);
    for (const key of ["paths", "urls", "base64s", "sources"]) {
      expect(property("Image", key)).toMatchObject({ minItems: 1, maxItems: MAX_IMAGE_SOURCES });
      expect(image).toContain(`${key.replace(/s$/, "")}/${key}`);
    }
    expect(image).toMatch(/the list wins/);
    expect(image).toMatch(/never downloaded: only the user sees them/);
    expect(image).toMatch(/the kind is inferred/);
    expect(image).toContain(`${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
    expect(image).toContain("<svg>");
    expect(image).toMatch(/use Read/);
  });

  it("Write: whole-file replace, read-in-full rule with the auto-read limit, stale_file, never a directory, write roots", () => {
    const write = text("Write");
    expect(write).toMatch(/Read in full/);
    expect(write).toContain(`at most ${AUTO_READ_LINE_LIMIT} lines`);
    expect(write).toContain("autoRead=full");
    expect(write).toMatch(/stale_file\): Read it again, then retry/);
    expect(write).toMatch(/parent directories are created/i);
    expect(write).toMatch(/prefer Edit/);
    expect(described("Write", "path")).toMatch(/never a directory/);
    expect(described("Write", "path")).toContain("(write roots only)");
    expect(described("Write", "path")).toMatch(WORKSPACE_PATHS);
    expect(described("Write", "mode")).toMatch(/ignored/);
  });

  it("Edit: exact single match unless replace_all, the tolerant order, stale_file, never creates, copy without line numbers", () => {
    const edit = text("Edit");
    expect(edit).toMatch(/exactly once unless replace_all=true/);
    expect(property("Edit", "replace_all").default).toBe(false);
    expect(edit).toMatch(/line endings.*then trailing whitespace.*then a uniform indentation shift/s);
    expect(edit).toMatch(/stale_file\): Read it again, then retry/);
    expect(edit).toMatch(/never creates/);
    expect(edit).toMatch(/add surrounding lines to make it unique/);
    expect(edit).toMatch(/chained edits need no re-read/);
    expect(described("Edit", "new_string")).toMatch(/May be empty/);
    expect(edit).toContain("without the line-number prefix");
    expect(edit).toContain("autoRead=full");
    expect(property("Edit", "expected_replacements").minimum).toBe(1);
    expect(described("Edit", "expected_replacements")).toMatch(/Fail unless exactly/);
    expect(described("Edit", "path")).toContain("(write roots only)");
    expect(property("Edit", "edits")).toMatchObject({ minItems: 1, maxItems: MAX_EDITS });
    expect(described("Edit", "edits")).toContain(`at most ${MAX_EDITS}`);
    expect(described("Edit", "edits")).toMatch(/Instead of old_string\/new_string: .*in order, each on the result of the previous ones, all or none/);
  });

  it("NotebookEdit: one cell named by id or 1-based number, insert's place and cell_type, outputs cleared, read first, stale_file", () => {
    const notebook = text("NotebookEdit");
    expect(notebook).toMatch(/one cell of a Jupyter notebook \(\.ipynb\)/);
    expect(notebook).toMatch(/by cell_id \(Read shows id=\.\.\.\) or cell_index \(1-based: Read's "Cell N"\), not both/);
    expect(notebook).toMatch(/insert adds the new cell after it \(cell_index=0: first; neither: last\)/);
    expect(notebook).toMatch(/outputs and execution_count are cleared/);
    expect(notebook).toMatch(/Read the notebook first.*stale_file/);
    expect(property("NotebookEdit", "edit_mode")).toMatchObject({ default: "replace", enum: ["replace", "insert", "delete"] });
    expect(described("NotebookEdit", "edit_mode")).toContain("Default replace");
    expect(described("NotebookEdit", "cell_type")).toMatch(/Required by insert/);
    expect(described("NotebookEdit", "new_source")).toMatch(/ignored by delete/);
    expect(described("NotebookEdit", "path")).toContain("(write roots only)");
    expect(described("NotebookEdit", "path")).toMatch(WORKSPACE_PATHS);
  });

  it("Delete: recursive directories, symlinks themselves, not the root, use it instead of rm", () => {
    const remove = text("Delete");
    expect(remove).toMatch(/symlink \(the link, not its target\)/);
    expect(remove).toMatch(/directory with everything inside/);
    expect(remove).toMatch(/root cannot be deleted/);
    expect(remove).toMatch(/instead of rm, git rm or Remove-Item/);
    expect(described("Delete", "path")).toContain("(write roots only)");
  });

  it("List and Glob: paging defaults, depth, glob semantics, ignore rules", () => {
    expect(property("List", "depth")).toMatchObject({ default: 2, minimum: 1 });
    expect(described("List", "depth")).toMatch(/default 2; 1 = direct children/);
    for (const name of ["List", "Glob"]) {
      expect(property(name, "max_results")).toMatchObject({ default: 200, minimum: 1 });
      expect(described(name, "max_results")).toContain("default 200");
      expect(property(name, "offset")).toMatchObject({ default: 0, minimum: 0 });
      expect(text(name)).toMatch(/\.gitignore, \.ignore and \.git\/info\/exclude \(even outside git\); skips \.git; includes dot-files/);
    }
    expect(text("List")).toMatch(/without following/);
    expect(text("List")).toMatch(/\[DIR\], \[FILE\], \[LINK\]\) sorted by path, paged with offset and max_results/);
    expect(described("List", "path")).toMatch(/default: the workspace root/);
    expect(described("List", "path")).toMatch(WORKSPACE_PATHS);
    expect(text("Glob")).toMatch(/does not follow symlinks/);
    const glob = text("Glob");
    expect(glob).toMatch(/not directories/);
    expect(glob).toMatch(/"\*" matches within one path segment, "\*\*" across directories/);
    expect(glob).toMatch(/without "\/" matches file names at any depth/);
    expect(glob).toMatch(/says when more remain/);
    expect(described("Glob", "sort_by")).toContain('"path"');
    expect(described("Glob", "path")).toMatch(/a file searches its directory/);
  });

  it("Grep: regex dialect, case default, modes, head_limit default, totals before paging, line cut, context max", () => {
    const grep = text("Grep");
    expect(grep).toMatch(/Rust syntax: no look-around or backreferences/);
    expect(described("Grep", "pattern").toLowerCase()).toContain("escape ( [ . * + ? { |");
    expect(property("Grep", "ignore_case").default).toBe(true);
    expect(grep).toContain("case-insensitive unless ignore_case=false");
    expect(property("Grep", "output_mode")).toMatchObject({ default: "content", enum: ["content", "files", "count"] });
    expect(described("Grep", "output_mode")).toMatch(/"content": path:line: text \(default\)/);
    expect(property("Grep", "head_limit")).toMatchObject({ default: 200, minimum: 1 });
    expect(described("Grep", "head_limit")).toContain("default 200");
    expect(grep).toMatch(/matchCount and fileCount are totals before paging/);
    expect(grep).toContain(`cut at ${GREP_LINE_CHARS} characters`);
    expect(property("Grep", "context")).toMatchObject({ minimum: 0, maximum: 20 });
    expect(described("Grep", "file_pattern")).toMatch(/"\|"-separated/);
    expect(described("Grep", "multiline")).toMatch(/across lines/);
    expect(grep).toMatch(/skips \.git and binary files; does not follow symlinks/);
    expect(grep).toMatch(/sorted by path, then line/);
    expect(grep).toMatch(/the result says how to continue/);
    expect(described("Grep", "file_pattern")).toMatch(/relative to path/);
    expect(described("Grep", "path")).toMatch(/default: the workspace root/);
  });
});
