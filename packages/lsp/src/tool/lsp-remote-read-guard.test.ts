import { SdkError, type ToolPluginHost } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import type { LspHiddenPath } from "../runtime/server-read-guard.js";
import { lspTools } from "./lsp-tools-plugin.js";

const hidden: LspHiddenPath = { rule: "Read(secret/**)", bases: ["/r"], self: false, globs: ["secret/**"], options: { dot: true }, minimatch: "/unused" };

/** A host whose workspace is remote (no local paths): only what `create` reads before starting anything. */
const remoteHost = {
  workdir: "/r",
  ports: { workspace: { kind: "ssh", label: "ssh://box/r", root: "/r", capabilities: { localPaths: false }, processes: {}, fs: {} } },
} as unknown as ToolPluginHost;

describe("lspTools on a remote workspace", () => {
  it("refuses to build with hidden paths: the fs guard cannot be injected into a remote server", () => {
    const plugin = lspTools({ hiddenPaths: () => [hidden] });
    expect(() => plugin.create(remoteHost)).toThrow(SdkError);
    expect(() => plugin.create(remoteHost)).toThrow(/Read\(secret\/\*\*\)/);
  });
});
