import { ToolError } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { loadPdfJs } from "./read-pdf.js";

describe("pdfjs-dist is an optional peer", () => {
  it("a missing pdfjs-dist fails the read with a ToolError naming the package, and is retried later", async () => {
    // What Node's import() rejects with when the package is not installed.
    const notFound = Object.assign(new Error("Cannot find package 'pdfjs-dist' imported from /app/node_modules/@agent-tools/tools-fs/dist/read/read-pdf.js"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    const error = await loadPdfJs(() => Promise.reject(notFound)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).message).toBe("PDF reading needs the optional package pdfjs-dist: npm install pdfjs-dist@4.10.38");
    const library = await loadPdfJs();
    expect(typeof library.getDocument).toBe("function");
  });
});
