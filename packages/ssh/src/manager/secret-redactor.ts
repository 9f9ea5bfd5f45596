/**
 * The last line of defence for saved credentials: every text and detail
 * SSHManager returns passes through a redactor that replaces any password,
 * passphrase or private key (and each long line of a key) it was told
 * about, wherever it shows up (an error message, a remote command's output).
 */

const MIN_SECRET_CHARS = 4;
const MIN_KEY_LINE_CHARS = 16;

/** Replaces known secrets in texts and in JSON-like values. */
export class SecretRedactor {
  readonly #secrets = new Set<string>();

  /** Adds a secret (a password, a passphrase) to replace. */
  addSecret(secret: string | undefined): void {
    if (secret !== undefined && secret.length >= MIN_SECRET_CHARS) this.#secrets.add(secret);
  }

  /** Adds a private key: the whole text and each of its long lines (so a wrapped or partial copy is caught too). */
  addKey(key: string | Uint8Array | undefined): void {
    if (key === undefined) return;
    const text = typeof key === "string" ? key : Buffer.from(key).toString("utf8");
    this.addSecret(text.trim());
    for (const line of text.split(/\r?\n/)) {
      const trimmed = line.trim();
      if (trimmed.length >= MIN_KEY_LINE_CHARS && !trimmed.startsWith("-----")) this.#secrets.add(trimmed);
    }
  }

  /** `text` with every known secret replaced by `<redacted>`. */
  text(text: string): string {
    let result = text;
    // Longest first, so a whole key goes before its lines.
    for (const secret of [...this.#secrets].sort((a, b) => b.length - a.length)) {
      if (result.includes(secret)) result = result.split(secret).join("<redacted>");
    }
    return result;
  }

  /** A copy of a JSON-like value with every string passed through {@link text}. */
  value<T>(value: T): T {
    if (typeof value === "string") return this.text(value) as T;
    if (Array.isArray(value)) return value.map((item) => this.value(item)) as T;
    if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.value(item)])) as T;
    }
    return value;
  }
}
