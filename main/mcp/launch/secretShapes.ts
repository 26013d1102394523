// What looks like a secret in a launch definition: a variable or header named like one, or a value shaped
// like a well-known credential whatever it is called. The risk analysis warns about them; the start
// dialog and the approvals file show every other value, and only a keyed digest of these.

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|AUTH/i;
/** Names that contain a secret-looking word but hold an address or an identifier, not a secret. */
const NOT_SECRET_NAME = /^(AUTH_?URL|AUTH_?ISSUER|KEY_?ID)$/i;
/** Values shaped like well-known credentials, whatever their variable is called. */
export const TOKEN_SHAPES: readonly RegExp[] = [
  /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/,
  /\bgh[pousr]_[A-Za-z0-9]{30,}/,
  /\bgithub_pat_[A-Za-z0-9_]{30,}/,
  /\bglpat-[A-Za-z0-9_-]{20,}/,
  /\bxox[abpors]-[A-Za-z0-9-]{10,}/,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/,
  /\bAIza[0-9A-Za-z_-]{35}\b/,
  /\bnpm_[A-Za-z0-9]{36}\b/,
  /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]+/,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
];
/** An address with a password in it (`postgres://me:pw@host/db`). */
const CREDENTIALS_IN_URL = /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i;
/** A value that only names where the secret comes from (VS Code's inputs, a variable), not the secret. */
const REFERENCE = /^\$\{[^}]+\}$|^\$[A-Z_][A-Z0-9_]*$/i;

/** A secret kept in Atrium's store, named where its value would be (`Bearer ${secret:NAME}`). */
const STORED_SECRET = /\$\{secret:[^}\s]+\}/;

/** Whether a value is only a reference to a secret kept elsewhere (or holds its secret part as one), or empty. */
export function isReferenceOrEmpty(value: string): boolean {
  return value.trim() === '' || REFERENCE.test(value.trim()) || STORED_SECRET.test(value);
}

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) && !NOT_SECRET_NAME.test(name);
}

export function isTokenShaped(value: string): boolean {
  return TOKEN_SHAPES.some((shape) => shape.test(value)) || CREDENTIALS_IN_URL.test(value.trim());
}

/** Whether a variable's value must not be shown: a secret by its name or its shape (a reference is shown). */
export function looksSecret(name: string, value: string): boolean {
  if (isReferenceOrEmpty(value)) return false;
  return isSecretName(name) || isTokenShaped(value);
}
