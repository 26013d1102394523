// Secrets must not reach the audit log or the trace: a tool's arguments often carry tokens, passwords and keys.
// A value is redacted when its key names a secret, and any string has the parts that look like a
// credential replaced, so `git clone https://ghp_…@github.com/x` keeps everything but the token.

export const REDACTED = '[redacted]';

// Keys are split into words (camelCase, snake_case, kebab-case, dots, spaces) and a word, or two adjacent
// words joined, is a secret when it equals or ends with one of these stems. Matching whole words keeps
// ordinary keys like "tokenizer", "max_tokens", "author" or "sessions" readable.
const SECRET_STEMS = [
  'password', 'passwd', 'passphrase', 'secret', 'secrets', 'token', 'auth', 'authorization', 'cookie', 'cookies',
  'credential', 'credentials', 'bearer', 'apikey', 'privatekey', 'accesskey', 'sessionid', 'sessionkey', 'signingkey',
];
// Words that are secrets only on their own: "pwd" inside a longer word is rarely a password.
const SECRET_WORDS = new Set(['pwd', 'session', 'jwt', 'otp']);

export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

function isSecretWord(word: string): boolean {
  return SECRET_WORDS.has(word) || SECRET_STEMS.some((stem) => word.endsWith(stem));
}

export function isSecretKey(key: string): boolean {
  const words = keyWords(key);
  return words.some((word, i) => isSecretWord(word) || (i > 0 && isSecretWord(`${words[i - 1] ?? ''}${word}`)));
}

// Credentials recognised by their shape, wherever they appear in a string. Each match becomes REDACTED.
const SECRET_PATTERNS: readonly RegExp[] = [
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|$)/g,
  // A bearer token, not the word "Bearer" in prose: long, or with a digit in it.
  /\bBearer\s+(?:[A-Za-z0-9\-._~+/]{16,}|(?=[A-Za-z0-9\-._~+/]*\d)[A-Za-z0-9\-._~+/]{8,})=*/gi,
  /\beyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, // JWT: base64url of '{"' twice
  /\bsk-[A-Za-z0-9_-]{16,}/g, // OpenAI, Anthropic (sk-ant-…), DeepSeek …
  /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/g, // Stripe
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g, // GitLab
  /\bxox[baprs]-[A-Za-z0-9-]{10,}/g, // Slack
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g, // AWS access key ids
  /\bAIza[0-9A-Za-z_-]{35}/g, // Google API keys
  /\bnpm_[A-Za-z0-9]{36}\b/g,
];

// `--password=…`, `"api_key": "…"`, `GITHUB_TOKEN=…` inside free text (command lines, connection
// strings, code): a name ending in a secret word, then = or :, then the value.
const ASSIGNMENT = /((?<![A-Za-z0-9_-])[A-Za-z0-9_-]*?(?:password|passwd|pwd|secret|token|api[_-]?key)(?![A-Za-z0-9])["']?\s*[=:]\s*["']?)([^\s"'&;,]+)/gi;
// The password in `scheme://user:password@host`.
const URL_CREDENTIALS = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]*:)([^\s/?#@]+)@/gi;

/** `text` with every part that looks like a credential replaced by REDACTED. */
export function redactString(text: string): string {
  let out = text;
  for (const pattern of SECRET_PATTERNS) out = out.replace(pattern, REDACTED);
  out = out.replace(URL_CREDENTIALS, `$1${REDACTED}@`);
  out = out.replace(ASSIGNMENT, (match: string, prefix: string, value: string) => (value === REDACTED ? match : `${prefix}${REDACTED}`));
  return out;
}

/**
 * A copy of a JSON-like value safe to store: values under secret-looking keys (at any depth, including
 * inside arrays) become REDACTED, and secret-looking parts of other strings are replaced. Booleans and
 * null under a secret key are kept: `{ auth: false }` reveals nothing.
 */
export function redactSecrets(value: unknown): unknown {
  return redact(value, new WeakSet());
}

function redact(value: unknown, seen: WeakSet<object>): unknown {
  if (typeof value === 'string') return redactString(value);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item: unknown) => redact(item, seen));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    out[key] = isSecretKey(key) && item !== null && typeof item !== 'boolean' && item !== undefined ? REDACTED : redact(item, seen);
  }
  return out;
}
