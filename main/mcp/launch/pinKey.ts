// The key launch approvals are signed with. A pin is an HMAC-SHA256 under a key that never sits in
// plain text beside the approvals: the desktop app's is wrapped by the OS keychain, the browser mode's
// and the command line's is the data folder's secrets key (`secrets.key`, readable by this user only).
// Each is used through a key derived from it for this one purpose, never as it is.

import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** Where a front end's key material comes from (32 random bytes, made on first use). */
export type KeySource = () => Promise<Buffer>;

/** The keys a front end signs launch approvals with. */
export interface LaunchPinKeys {
  /** The key whose approvals this front end believes: only an approval it signed lets a server run. */
  own: KeySource;
  /**
   * Keys it also signs each approval with, so that another front end on the same data folder takes it as
   * approved too (the desktop app signs for the command line and the browser mode, not the other way).
   */
  alsoSignWith?: readonly KeySource[];
}

export interface PinKey {
  /** A short name for the key, under which its approvals are filed; says nothing about the key. */
  readonly id: string;
  /** The HMAC of `text`, hex. */
  sign(text: string): string;
  /** Whether `mac` is this key's HMAC of `text` (compared in constant time). */
  verify(text: string, mac: string): boolean;
}

export function pinKeyFrom(material: Buffer): PinKey {
  const key = Buffer.from(hkdfSync('sha256', material, Buffer.alloc(0), 'atrium launch approvals', 32));
  const sign = (text: string) => createHmac('sha256', key).update(text, 'utf8').digest('hex');
  return {
    id: sign('the name of this key').slice(0, 16),
    sign,
    verify: (text, mac) => {
      const expected = Buffer.from(sign(text), 'hex');
      const given = Buffer.from(/^[0-9a-f]{64}$/.test(mac) ? mac : '', 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
