import { OFFICE_LIMITS, type OfficeFileLabel, officeTooLarge } from "./office-zip.js";

/**
 * The extracted lines of an Office file, under the line and character caps:
 * passing one throws `too_large` instead of growing without bound.
 */
export class OfficeLines {
  readonly lines: string[] = [];
  private chars = 0;

  constructor(private readonly label: OfficeFileLabel) {}

  /** Appends one line (no line breaks inside). */
  push(line: string): void {
    this.chars += line.length + 1;
    if (this.chars > OFFICE_LIMITS.maxChars) {
      throw officeTooLarge(this.label, `holds more than ${OFFICE_LIMITS.maxChars / (1024 * 1024)} M characters of text; Read extracts at most that much`, {
        limit: OFFICE_LIMITS.maxChars,
      });
    }
    if (this.lines.length >= OFFICE_LIMITS.maxRows) {
      throw officeTooLarge(this.label, `has more than ${OFFICE_LIMITS.maxRows} lines or rows of text; Read extracts at most that many`, {
        limit: OFFICE_LIMITS.maxRows,
      });
    }
    this.lines.push(line);
  }

  /** Appends a blank line unless the text is empty or already ends with one. */
  blank(): void {
    if (this.lines.length > 0 && this.lines[this.lines.length - 1] !== "") this.push("");
  }

  /** The lines without trailing blank ones. */
  finish(): string[] {
    while (this.lines.length > 0 && this.lines[this.lines.length - 1] === "") this.lines.pop();
    return this.lines;
  }
}

/** A cell's or table cell's text on one line: tabs and line breaks become single spaces. */
export function oneLine(text: string): string {
  return text.replace(/[\t\r\n]+/g, " ").trim();
}
