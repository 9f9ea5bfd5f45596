/**
 * `@agent-tools/core/diagnostics`: how the file-changing tools report the
 * problems a change introduced, through a provider another plugin
 * contributes (the language servers of `@agent-tools/lsp`).
 *
 * @packageDocumentation
 */
export { EDIT_DIAGNOSTICS_SLOT } from "./edit-diagnostics.js";
export type {
  DiagnosticsFileChange,
  EditDiagnostic,
  EditDiagnostics,
  EditDiagnosticsBaseline,
  EditDiagnosticsCallOptions,
  EditDiagnosticsDetails,
  EditDiagnosticsReport,
} from "./edit-diagnostics.js";
