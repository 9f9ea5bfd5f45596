import { ToolError, defineTool, type ToolContent } from "@agent-tools/core";
import { z } from "zod";
import { MAX_IMAGE_BYTES, sniffImageMime } from "../shared/image-data.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { readImageFile } from "./image-path.js";
import { MAX_IMAGE_SOURCES, type ImageSourceType, checkImageUrl, collectImageSources, decodeBase64Image } from "./image-sources.js";

const list = () => z.array(z.string()).min(1).max(MAX_IMAGE_SOURCES).optional();

/** Image's input schema. */
export const imageInputSchema = z.object({
  path: z.string().optional().describe("Local file: workspace-relative, root://<alias>/..., or any absolute path."),
  paths: list(),
  url: z.string().optional(),
  urls: list(),
  base64: z.string().optional(),
  base64s: list(),
  source: z.string().optional(),
  sources: list(),
  mimeType: z.string().optional(),
  mime_type: z.string().optional().describe("Alias of mimeType."),
});

/** One displayed image in the details. */
export interface DisplayedImage {
  sourceType: ImageSourceType;
  renderMode: "inline" | "proxy";
  mimeType?: string;
  bytes?: number;
  path?: string;
  url?: string;
}

/** Details of an Image result. */
export interface ImageDetails {
  kind: "display_image";
  images: DisplayedImage[];
  loadMode: "inline" | "proxy" | "mixed";
}

const DESCRIPTION = `Shows up to ${MAX_IMAGE_SOURCES} images to the user and you. Each kind takes one value or a list (the list wins):
- path/paths: local image files anywhere, up to 25 MB each.
- url/urls: http(s), never downloaded: only the user sees them.
- base64/base64s: raw or data:image/... URLs.
- source/sources: any of these or inline <svg>; the kind is inferred.
To inspect a workspace image yourself, use Read.`;

/** Creates the Image tool for one bundle. */
export function createImageTool(environment: FsToolEnvironment) {
  void environment;
  return defineTool<typeof imageInputSchema, ImageDetails>({
    name: "Image",
    description: DESCRIPTION,
    inputSchema: imageInputSchema,
    metadata: {
      groupId: "fs",
      kind: "image",
      isReadOnly: true,
      displayCategory: "file",
      annotations: { readOnly: true, listedInPlanMode: true, openWorld: false },
    },
    loopKey: (input) => input.path ?? input.source ?? input.url,
    async execute(input, context) {
      const sources = collectImageSources(input);
      const override = input.mimeType ?? input.mime_type;
      const content: ToolContent[] = [];
      const images: DisplayedImage[] = [];
      const summary: string[] = [];
      for (const [index, source] of sources.entries()) {
        const label = `#${index + 1}`;
        if (source.type === "url") {
          const url = checkImageUrl(source.value);
          images.push({ sourceType: "url", renderMode: "proxy", url });
          summary.push(`${label} url ${url}: shown to the user by proxy (not visible to you)`);
          continue;
        }
        // For files the signature wins over a caller's mimeType or the
        // extension (a PNG sent as image/jpeg makes providers reject the whole
        // request); for bytes the caller passed itself its mimeType still wins.
        let bytes: Buffer;
        let fallbackMimeType: string | undefined;
        let signatureWins = false;
        let shownPath: string | undefined;
        if (source.type === "path") {
          const file = await readImageFile(source.value, context);
          bytes = file.bytes;
          // Outside the roots readImageFile only returns recognised images: the caller's word is not taken.
          fallbackMimeType = file.external ? undefined : (override ?? file.extensionMimeType);
          shownPath = file.displayPath;
          signatureWins = true;
        } else if (source.type === "svg") {
          bytes = Buffer.from(source.value.trim(), "utf8");
          fallbackMimeType = override ?? "image/svg+xml";
        } else {
          const decoded = decodeBase64Image(source.value);
          bytes = decoded.bytes;
          fallbackMimeType = override ?? decoded.mimeType;
        }
        if (bytes.length > MAX_IMAGE_BYTES) throw new ToolError("too_large", `Image ${label} is ${bytes.length} bytes; at most 25 MB is shown.`);
        const sniffed = sniffImageMime(bytes);
        const mimeType = signatureWins ? (sniffed ?? fallbackMimeType) : (fallbackMimeType ?? sniffed);
        const overridden =
          signatureWins && override !== undefined && sniffed !== undefined && override.toLowerCase() !== sniffed
            ? ` (mimeType ${override.slice(0, 60)} ignored: the file's bytes are ${sniffed})`
            : "";
        if (!mimeType?.startsWith("image/")) {
          throw new ToolError(
            "unsupported_target",
            `Image ${label}${shownPath ? ` (${shownPath})` : ""} is not a recognised image; pass mimeType if you know it.`,
          );
        }
        content.push({ type: "image", data: bytes.toString("base64"), mimeType });
        images.push({ sourceType: source.type, renderMode: "inline", mimeType, bytes: bytes.length, path: shownPath });
        summary.push(`${label} ${shownPath ?? source.type}: ${mimeType}, ${bytes.length} bytes${overridden}`);
      }
      const inline = images.filter((image) => image.renderMode === "inline").length;
      const loadMode: ImageDetails["loadMode"] = inline === images.length ? "inline" : inline === 0 ? "proxy" : "mixed";
      return {
        content: [{ type: "text", text: `Displayed ${images.length} image${images.length === 1 ? "" : "s"}:\n${summary.join("\n")}` }, ...content],
        details: { kind: "display_image" as const, images, loadMode },
      };
    },
  });
}
