/**
 * `@agent-tools/sdk/edit-surface`: which edit tool a model is given. The
 * registry option `editSurface: "auto"` (the default) looks the host's
 * `modelId` up in the host's `editSurfaceByModel` entries, then in
 * {@link DEFAULT_EDIT_SURFACE_BY_MODEL}; {@link editSurfaceForModel} gives
 * the same answer without building a registry.
 *
 * @packageDocumentation
 */
export { DEFAULT_EDIT_SURFACE_BY_MODEL, editSurfaceForModel } from "./edit-surface.js";
export type { EditSurface, EditSurfaceRule } from "./edit-surface.js";
