// A refusal or failure while installing a server — a registry that does not answer, an entry that names
// no exact version, a bundle whose hash does not match — said in a sentence the person acts on. Nothing
// was written when it is thrown.

export class InstallError extends Error {
  readonly code: 'invalid_params' | 'not_found' | 'failed';
  /** A required value that was not given, by the key the entry or bundle names it (the command line says how to give it). */
  readonly missingKey: string | undefined;
  constructor(code: InstallError['code'], message: string, missingKey?: string) {
    super(message);
    this.code = code;
    this.missingKey = missingKey;
  }
}
