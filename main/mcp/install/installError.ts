// A refusal or failure while installing a server — a registry that does not answer, an entry that names
// no exact version, a bundle whose hash does not match — said in a sentence the person acts on. Nothing
// was written when it is thrown.

export class InstallError extends Error {
  readonly code: 'invalid_params' | 'not_found' | 'failed';
  constructor(code: InstallError['code'], message: string) {
    super(message);
    this.code = code;
  }
}
