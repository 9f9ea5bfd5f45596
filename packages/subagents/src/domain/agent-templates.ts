/**
 * Prompt templates: which are offered, the at-most-one-enabled settings
 * rule, and lookup by id or name.
 */
import type { AgentPromptTemplate } from "./subagent-types.js";

/**
 * The templates a model may use: enabled ones with a non-empty prompt, in
 * the given order.
 */
export function offeredTemplates(templates: readonly AgentPromptTemplate[]): AgentPromptTemplate[] {
  return templates.filter((template) => template.enabled && template.prompt.trim() !== "");
}

/**
 * Normalises a template list as settings keep it: at most one template is
 * enabled, the first enabled one; later enabled ones become `enabled: false`.
 */
export function normalizeTemplates(templates: readonly AgentPromptTemplate[]): AgentPromptTemplate[] {
  let enabledSeen = false;
  return templates.map((template) => {
    if (!template.enabled) return template;
    if (enabledSeen) return { ...template, enabled: false };
    enabledSeen = true;
    return template;
  });
}

/**
 * Finds a template by id, else by name, both case-insensitively, among the
 * given templates (pass {@link offeredTemplates} to search only offered ones).
 *
 * @example
 * findTemplate(offeredTemplates(templates), "Reviewer");
 */
export function findTemplate(templates: readonly AgentPromptTemplate[], ref: string): AgentPromptTemplate | undefined {
  const key = ref.trim().toLowerCase();
  if (key === "") return undefined;
  return templates.find((template) => template.id.toLowerCase() === key) ?? templates.find((template) => template.name.trim().toLowerCase() === key);
}
