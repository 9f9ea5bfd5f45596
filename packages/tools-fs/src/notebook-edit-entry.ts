/**
 * `@agent-tools/tools-fs/notebook-edit`: the type of NotebookEdit's answer.
 * The tool itself comes with the fs bundle (`createFsToolBundle`); its
 * `details` are {@link NotebookEditDetails}.
 *
 * @packageDocumentation
 */
export type { NotebookEditDetails } from "./notebook-edit/notebook-edit-result.js";
