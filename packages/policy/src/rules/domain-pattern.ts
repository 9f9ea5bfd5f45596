/**
 * The specifier of WebFetch rules: `domain:<host>` names one host exactly
 * (`domain:docs.example.com`), `domain:*.<host>` every subdomain of it at
 * any depth but not the host itself. Hosts are compared as the WHATWG URL
 * parser writes them (lower case, international names in punycode, numeric
 * IPv4 forms as a dotted quad, one trailing dot dropped). Anything else is
 * an `SdkError` that shows the rule to write.
 */
import { invalidRule } from "./rule-grammar.js";

/** A compiled `domain:` specifier. */
export interface DomainPattern {
  /** The host as the URL parser writes it, without a trailing dot. */
  readonly host: string;
  /** True for `*.<host>`: subdomains only. */
  readonly subdomains: boolean;
}

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** The host of `text` as the URL parser writes it, or undefined when it is not a bare host. */
function normalHost(text: string): string | undefined {
  if (text === "" || /[/?#@:\s\\%]/.test(text.replace(/^\[[0-9a-fA-F:.]+\]$/, "v6"))) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${text}/`);
  } catch {
    return undefined;
  }
  const host = url.hostname.replace(/\.$/, "");
  if (url.port !== "" || host === "") return undefined;
  if (host.startsWith("[")) return host;
  return host.split(".").every((label) => LABEL.test(label)) ? host : undefined;
}

function suggestionFor(specifier: string): string | undefined {
  const bare = specifier.replace(/^domain:/i, "");
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(bare) ? bare : `http://${bare}`);
    const host = url.hostname.replace(/\.$/, "");
    return host === "" ? undefined : `WebFetch(domain:${host})`;
  } catch {
    return undefined;
  }
}

/**
 * Compiles the specifier of a `WebFetch(...)` rule.
 *
 * @example
 * compileDomainPattern("WebFetch(domain:*.example.com)", "domain:*.example.com", "permissions.project.allow[0]");
 * // { host: "example.com", subdomains: true }
 */
export function compileDomainPattern(rule: string, specifier: string, where: string): DomainPattern {
  const fail = (why: string): never => {
    const suggestion = suggestionFor(specifier);
    const hint = suggestion === undefined || suggestion === rule ? "" : ` Did you mean \`${suggestion}\`?`;
    return invalidRule(
      rule,
      where,
      `${why} Write \`WebFetch(domain:example.com)\` for one host or \`WebFetch(domain:*.example.com)\` for its subdomains.${hint}`,
      {
        ...(suggestion === undefined || suggestion === rule ? {} : { suggestion }),
      },
    );
  };
  if (!specifier.startsWith("domain:")) return fail("gives a specifier that is not `domain:<host>`.");
  const value = specifier.slice("domain:".length);
  const subdomains = value.startsWith("*.");
  const hostText = subdomains ? value.slice(2) : value;
  if (hostText.includes("*")) return fail("uses `*` other than as a leading `*.`.");
  const host = normalHost(hostText);
  if (host === undefined) return fail(`names ${JSON.stringify(value)}, which is not a host name (no scheme, port, path or spaces).`);
  if (subdomains && (host.startsWith("[") || !host.includes("."))) return fail("puts `*.` before an address or a top-level name.");
  return { host, subdomains };
}

/** The host a WebFetch call names (its `url`), as the URL parser writes it; undefined when there is none. */
export function callHostOf(toolName: string, input: Readonly<Record<string, unknown>>): string | undefined {
  if (toolName !== "WebFetch" || typeof input.url !== "string") return undefined;
  try {
    const host = new URL(input.url).hostname.replace(/\.$/, "");
    return host === "" ? undefined : host;
  } catch {
    return undefined;
  }
}

/** True when `host` is the pattern's host (or, for `*.`, one of its subdomains). */
export function matchesDomain(pattern: DomainPattern, host: string): boolean {
  return pattern.subdomains ? host.endsWith(`.${pattern.host}`) : host === pattern.host;
}
