/**
 * Screens memory content before it is stored. Secrets block the write
 * outright (nothing is stored); risky instructions are stored but flagged and
 * left unreviewed, so a later reader treats them with care.
 */

/** Result of {@link screenMemoryContent}. */
export type MemoryRiskVerdict = { verdict: "ok" } | { verdict: "hard_block"; reasons: string[] } | { verdict: "soft"; flags: string[] };

interface RiskPattern {
  readonly id: string;
  readonly pattern: RegExp;
}

/** Secret patterns: any match blocks the write. Ids name the kind of secret. */
export const MEMORY_SECRET_PATTERNS: readonly RiskPattern[] = [
  { id: "private_key", pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/ },
  { id: "aws_access_key", pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { id: "anthropic_api_key", pattern: /\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{20,}/ },
  {
    id: "openai_api_key",
    // Legacy keys are sk- plus 48 letters and digits; project, service-account
    // and admin keys are long and dashed; both kinds embed "T3BlbkFJ".
    pattern: /\bsk-[A-Za-z0-9]{48}\b|\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}|\bsk-[A-Za-z0-9_-]*T3BlbkFJ[A-Za-z0-9_-]{8,}/,
  },
  { id: "github_token", pattern: /\bgh[pousr]_[A-Za-z0-9]{36,}\b/ },
  { id: "github_pat", pattern: /\bgithub_pat_[A-Za-z0-9_]{22,}/ },
  { id: "slack_token", pattern: /\bxox[baprs]-[0-9A-Za-z-]{10,}/ },
];

/** Soft patterns: stored unreviewed with these flag ids. */
export const MEMORY_SOFT_RISK_PATTERNS: readonly RiskPattern[] = [
  {
    id: "prompt_injection",
    pattern:
      /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)*(?:previous|prior|above|earlier|preceding|system|developer)\s+(?:instructions?|prompts?|messages?|rules?|context)\b|\b(?:disregard|ignore|override)\s+(?:the\s+|your\s+)?system\s+prompt\b|\byou\s+are\s+now\s+(?:in\s+)?(?:developer|dan|jailbreak)\b/i,
  },
  { id: "sudo", pattern: /(?:^|[\s;&|`(])sudo\s/m },
  { id: "eval", pattern: /\beval\s*\(/ },
  { id: "no_verify", pattern: /--no-verify\b/ },
  { id: "rm_rf_root", pattern: /\brm\s+-(?:rf|fr|r\s+-f|f\s+-r)\s+(?:--no-preserve-root\s+)?(?:\/|~)(?:\s|$|\*)/m },
  { id: "pipe_to_shell", pattern: /\b(?:curl|wget)\b[^\n|]*\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b/ },
  { id: "chmod_world_writable", pattern: /\bchmod\s+(?:-R\s+)?777\b/ },
];

/**
 * Screens text (description and body of a write). Secrets win over soft
 * flags: a text with both is blocked.
 *
 * @example
 * screenMemoryContent("run with --no-verify"); // { verdict: "soft", flags: ["no_verify"] }
 */
export function screenMemoryContent(text: string): MemoryRiskVerdict {
  const reasons = MEMORY_SECRET_PATTERNS.filter((entry) => entry.pattern.test(text)).map((entry) => entry.id);
  if (reasons.length > 0) return { verdict: "hard_block", reasons };
  const flags = MEMORY_SOFT_RISK_PATTERNS.filter((entry) => entry.pattern.test(text)).map((entry) => entry.id);
  if (flags.length > 0) return { verdict: "soft", flags };
  return { verdict: "ok" };
}
