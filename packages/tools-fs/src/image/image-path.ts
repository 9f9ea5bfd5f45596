import { type ResolvedPath, ToolError, type ToolContext } from "@agent-tools/core";
import { type AnchoredTarget, anchorTarget, openTarget } from "../file-engine/anchored-target.js";
import { notFoundError, toFsToolError } from "../shared/fs-errors.js";
import { assertRegularFile } from "../shared/regular-file.js";
import { isWorkspaceScope, remoteWorkspace } from "../workspace/workspace-call.js";
import { readWorkspaceImage } from "../workspace/workspace-image.js";
import { IMAGE_MIME_BY_EXTENSION, MAX_IMAGE_BYTES, SNIFFED_IMAGE_FORMATS, extensionOf, sniffImageMime } from "../shared/image-data.js";

/** An image file read for Image. */
export interface ImageFile {
  bytes: Buffer;
  /** The type the bytes' signature shows, if recognised. */
  sniffedMimeType?: string;
  /** The type the file extension implies, if any. */
  extensionMimeType?: string;
  /** True when the path lies outside the workspace and every granted root. */
  external: boolean;
  displayPath: string;
}

/**
 * Resolves and reads one `path` source of Image (absolute paths outside the
 * roots are accepted, as Image alone does).
 *
 * Outside the workspace and granted roots the file is only returned when its
 * bytes carry a real image signature ({@link sniffImageMime}): a caller's
 * `mimeType` or the extension never turns an arbitrary file (`/etc/shadow`)
 * into an "image". The refusal quotes nothing of the file, and a missing
 * external path gets no did-you-mean (that would list directories outside
 * the roots).
 */
export async function readImageFile(value: string, context: ToolContext): Promise<ImageFile> {
  const resolved = context.paths.resolve(value, { intent: "image", label: "Image path", allowExternal: true });
  const external = resolved.scope === "external";
  const workspace = remoteWorkspace(context);
  const bytes =
    workspace && isWorkspaceScope(resolved) ? await readWorkspaceImage(workspace, resolved, context) : await readLocalImage(resolved, context, external);
  return imageFileOf(resolved, bytes, external);
}

/** The bytes of an image file on the local disk. */
async function readLocalImage(resolved: ResolvedPath, context: ToolContext, external: boolean): Promise<Buffer> {
  if (!resolved.exists) {
    if (!external) throw notFoundError("Image", resolved, context);
    throw new ToolError(
      "not_found",
      `Image failed: ${resolved.displayPath} does not exist. Check the path; for a file in the workspace pass a workspace-relative path.`,
      {
        details: { path: resolved.displayPath },
      },
    );
  }
  let bytes: Buffer;
  // Pinned and opened like Read (no racing symlink, no FIFO that could block a pool thread).
  let target: AnchoredTarget | undefined;
  try {
    target = anchorTarget(resolved, { toolName: "Image", followLeaf: true });
    if (!target.stats) throw Object.assign(new Error("missing"), { code: "ENOENT" });
    assertRegularFile("Image", resolved.displayPath, target.stats);
    if (target.stats.size > MAX_IMAGE_BYTES)
      throw new ToolError("too_large", `Image failed: ${resolved.displayPath} is ${target.stats.size} bytes; at most 25 MB is shown.`);
    const { handle } = await openTarget("Image", resolved.displayPath, target);
    try {
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw toFsToolError("Image", error, resolved, context);
  } finally {
    target?.close();
  }
  return bytes;
}

/** The {@link ImageFile} of an image's bytes (outside the roots only a real image is accepted). */
function imageFileOf(resolved: ResolvedPath, bytes: Buffer, external: boolean): ImageFile {
  const sniffedMimeType = sniffImageMime(bytes);
  if (external && sniffedMimeType === undefined) {
    throw new ToolError(
      "unsupported_target",
      `Image refused ${resolved.displayPath}: it is outside the workspace and granted roots, and its contents are not a ${SNIFFED_IMAGE_FORMATS} image. Outside the roots Image sends only files whose bytes are a real image; mimeType and the file extension are not trusted there. Nothing of the file was sent. Pass a real image file, or ask the user to copy it into the workspace.`,
      { details: { path: resolved.displayPath, scope: "external" } },
    );
  }
  return {
    bytes,
    sniffedMimeType,
    extensionMimeType: IMAGE_MIME_BY_EXTENSION[extensionOf(resolved.absolutePath)],
    external,
    displayPath: resolved.displayPath,
  };
}
