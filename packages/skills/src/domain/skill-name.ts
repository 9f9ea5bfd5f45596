/**
 * The skill name rule: lowercase letters, digits and single inner hyphens,
 * 1 to 64 characters, never a Windows reserved device name (a skill folder
 * carries the name, and such folders cannot exist on Windows).
 */
import { SKILL_LIMITS } from "./skill-types.js";

const WINDOWS_RESERVED_NAMES: ReadonlySet<string> = new Set([
  "con",
  "prn",
  "aux",
  "nul",
  ...Array.from({ length: 9 }, (_, index) => `com${index + 1}`),
  ...Array.from({ length: 9 }, (_, index) => `lpt${index + 1}`),
]);

/**
 * Turns any text into a name that follows the rule, as a hint for the model:
 * lowercased, runs of other characters as one hyphen, edge hyphens dropped,
 * cut to 64 characters. Returns `my-skill` when nothing usable is left, and
 * adds `-skill` to a reserved device name.
 *
 * @example
 * suggestSkillName("My PDF_Tools!"); // "my-pdf-tools"
 */
export function suggestSkillName(raw: string): string {
  let name = raw
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  name = name.slice(0, SKILL_LIMITS.nameMaxLength).replace(/-+$/, "");
  if (name === "") return "my-skill";
  if (WINDOWS_RESERVED_NAMES.has(name)) return `${name}-skill`;
  return name;
}

/**
 * Checks a skill name. Returns `undefined` when it is valid, otherwise a
 * message naming the broken rule and suggesting a valid name.
 *
 * @example
 * skillNameProblem("pdf-tools"); // undefined
 * skillNameProblem("PDF Tools"); // 'Skill name "PDF Tools" may only hold lowercase letters a-z, digits and hyphens. Try "pdf-tools".'
 */
export function skillNameProblem(name: string): string | undefined {
  const shown = JSON.stringify(name);
  const hint = (): string => ` Try "${suggestSkillName(name)}".`;
  if (name.length === 0) return `Skill name is empty: use 1-${SKILL_LIMITS.nameMaxLength} lowercase letters, digits and hyphens, e.g. "my-skill".`;
  if (name.length > SKILL_LIMITS.nameMaxLength) {
    return `Skill name ${shown} is ${name.length} characters long; the limit is ${SKILL_LIMITS.nameMaxLength}.${hint()}`;
  }
  if (!/^[a-z0-9-]+$/.test(name)) return `Skill name ${shown} may only hold lowercase letters a-z, digits and hyphens.${hint()}`;
  if (name.startsWith("-") || name.endsWith("-")) return `Skill name ${shown} must not start or end with a hyphen.${hint()}`;
  if (name.includes("--")) return `Skill name ${shown} must not contain two hyphens in a row.${hint()}`;
  if (WINDOWS_RESERVED_NAMES.has(name.toLowerCase())) {
    return `Skill name ${shown} is a reserved device name on Windows and cannot name a folder there.${hint()}`;
  }
  return undefined;
}
