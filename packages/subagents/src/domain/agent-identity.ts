/**
 * How a new subagent identity gets its name, role and identity prompt.
 */
import type { AgentPromptTemplate, SubagentIdentity } from "./subagent-types.js";

/**
 * A new identity by the creation rules: name = the given name, else the
 * template's name, else the id title-cased, else the id; role = the given
 * role, else the template's description, else the name; identity prompt =
 * the given one or `""`. Blank values count as not given.
 */
export function createIdentity(
  id: string,
  given: { name?: string; role?: string; identityPrompt?: string; template?: AgentPromptTemplate },
  now: number,
): SubagentIdentity {
  const templateName = given.template?.name.trim();
  const templateDescription = given.template?.description.trim();
  const name = given.name ?? (templateName ? templateName : undefined) ?? (titleCase(id) || id);
  const role = given.role ?? (templateDescription ? templateDescription : undefined) ?? name;
  return {
    id,
    name,
    role,
    identityPrompt: given.identityPrompt ?? "",
    ...(given.template === undefined ? {} : { templateId: given.template.id }),
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * An id as a display name: words split on `-`, `_` and `.`, each capitalised
 * (`code-reviewer` -> `Code Reviewer`).
 */
export function titleCase(id: string): string {
  return id
    .split(/[-_.]+/)
    .filter((word) => word !== "")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}
