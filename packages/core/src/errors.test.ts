import { describe, expect, it } from "vitest";
import { CodedError, SdkError, ToolError } from "./errors.js";

/** A port error as GitClientError and ModelClientError are built (not imported: they are moving to their own packages). */
class PortError extends CodedError<"conflict" | "patch_failed", { paths?: string[] }> {
  override readonly name = "PortError";
}

describe("error family", () => {
  it("ToolError and SdkError are CodedErrors and Errors", () => {
    const tool = new ToolError("not_found", "a.ts does not exist.", { details: { path: "a.ts" } });
    const sdk = new SdkError("closed", "The registry is closed.");
    for (const error of [tool, sdk]) {
      expect(error).toBeInstanceOf(CodedError);
      expect(error).toBeInstanceOf(Error);
    }
    expect(tool).toBeInstanceOf(ToolError);
    expect(sdk).not.toBeInstanceOf(ToolError);
    expect(tool.name).toBe("ToolError");
    expect(sdk.name).toBe("SdkError");
    expect(tool.recoverable).toBe(true);
  });

  it("toJSON gives name, code, message and details for every error; ToolError adds recoverable", () => {
    const tool = new ToolError("conflict", "busy", { details: { serverId: "s" }, recoverable: false });
    const sdk = new SdkError("invalid_options", "bad", { option: "workdir" });
    const git = new PortError("conflict", "merge conflict", { paths: ["a.txt"] });
    expect(JSON.parse(JSON.stringify(tool))).toEqual({ name: "ToolError", code: "conflict", message: "busy", details: { serverId: "s" }, recoverable: false });
    expect(JSON.parse(JSON.stringify(sdk))).toEqual({ name: "SdkError", code: "invalid_options", message: "bad", details: { option: "workdir" } });
    expect(JSON.parse(JSON.stringify(git))).toEqual({ name: "PortError", code: "conflict", message: "merge conflict", details: { paths: ["a.txt"] } });
  });

  it("data is a deprecated alias of details (the same object)", () => {
    const git = new PortError("patch_failed", "no", { paths: ["b.txt"] });
    const tool = new ToolError("io", "disk full", { details: { bytes: 1 } });
    expect(git.data).toBe(git.details);
    expect(git.data.paths).toEqual(["b.txt"]);
    expect(tool.data).toBe(tool.details);
    expect(new ToolError("other", "x").details).toEqual({});
  });

  it("keeps the cause only when one is given", () => {
    const cause = new Error("root");
    expect(new ToolError("io", "x", { cause }).cause).toBe(cause);
    expect("cause" in new ToolError("io", "x")).toBe(false);
    expect(new SdkError("storage", "x", {}, { cause }).cause).toBe(cause);
  });
});
