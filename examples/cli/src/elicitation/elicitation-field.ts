/**
 * One field of an MCP elicitation form at the terminal: how it is described
 * in the prompt, and how a typed line becomes its value. The MCP client
 * checks the whole answer again; this check lets the user retype at once.
 */
import type { BuiltinToolRegistryOptions } from "@agent-tools/sdk";

type McpOptions = NonNullable<BuiltinToolRegistryOptions["mcp"]>;
/** The host's elicitation request, as the SDK types it. */
export type ElicitationRequest = Parameters<NonNullable<McpOptions["onElicitation"]>>[0];
/** The host's answer. */
export type ElicitationResult = Awaited<ReturnType<NonNullable<McpOptions["onElicitation"]>>>;
/** One field of the requested form. */
export type ElicitationField = ElicitationRequest["requestedSchema"]["properties"][string];
/** A field's value. */
export type ElicitationValue = string | number | boolean | string[];

/** The allowed values of an enum field (single or multi-select), or undefined. */
export function fieldChoices(field: ElicitationField): string[] | undefined {
  if (field.type === "array") return field.items?.enum ?? field.items?.anyOf?.map((option) => option.const);
  return field.enum ?? field.oneOf?.map((option) => option.const);
}

/** What the prompt says about the expected input, e.g. `one of red, blue` or `integer, 1..10`. */
export function describeField(field: ElicitationField): string {
  const choices = fieldChoices(field);
  if (field.type === "array") return `any of ${choices?.join(", ")}, comma-separated`;
  if (choices !== undefined) return `one of ${choices.join(", ")}`;
  if (field.type === "boolean") return "y/n";
  if (field.type === "number" || field.type === "integer") {
    const range = field.minimum !== undefined || field.maximum !== undefined ? `, ${field.minimum ?? ""}..${field.maximum ?? ""}` : "";
    return `${field.type}${range}`;
  }
  return field.format ?? "text";
}

/** The typed line as the field's value, or the problem to show before asking again. */
export function parseFieldInput(field: ElicitationField, text: string): { value: ElicitationValue } | { problem: string } {
  const choices = fieldChoices(field);
  switch (field.type) {
    case "boolean": {
      const answer = text.toLowerCase();
      if (["y", "yes", "true"].includes(answer)) return { value: true };
      if (["n", "no", "false"].includes(answer)) return { value: false };
      return { problem: "answer y or n" };
    }
    case "number":
    case "integer": {
      const value = Number(text);
      if (text === "" || !Number.isFinite(value)) return { problem: "type a number" };
      if (field.type === "integer" && !Number.isInteger(value)) return { problem: "type a whole number" };
      if (field.minimum !== undefined && value < field.minimum) return { problem: `type at least ${field.minimum}` };
      if (field.maximum !== undefined && value > field.maximum) return { problem: `type at most ${field.maximum}` };
      return { value };
    }
    case "array": {
      const values = text
        .split(",")
        .map((part) => part.trim())
        .filter((part) => part !== "");
      const unknown = values.filter((value) => !choices?.includes(value));
      if (unknown.length > 0) return { problem: `not a choice: ${unknown.join(", ")}` };
      if (field.minItems !== undefined && values.length < field.minItems) return { problem: `choose at least ${field.minItems}` };
      if (field.maxItems !== undefined && values.length > field.maxItems) return { problem: `choose at most ${field.maxItems}` };
      return { value: [...new Set(values)] };
    }
    default: {
      if (choices !== undefined) return choices.includes(text) ? { value: text } : { problem: `type one of ${choices.join(", ")}` };
      const length = [...text].length;
      if (field.minLength !== undefined && length < field.minLength) return { problem: `type at least ${field.minLength} character(s)` };
      if (field.maxLength !== undefined && length > field.maxLength) return { problem: `type at most ${field.maxLength} character(s)` };
      if (field.format === "email" && !/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(text)) return { problem: "type an email address" };
      if (field.format === "uri" && !URL.canParse(text)) return { problem: "type an absolute URI (https://...)" };
      if (field.format === "date" && !/^\d{4}-\d{2}-\d{2}$/.test(text)) return { problem: "type a date as YYYY-MM-DD" };
      if (field.format === "date-time" && Number.isNaN(Date.parse(text))) return { problem: "type a date and time, e.g. 2026-01-31T09:30:00Z" };
      return { value: text };
    }
  }
}
