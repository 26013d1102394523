// The key DPoP-bound tokens (RFC 9449) are tied to. A token bound to a key that is gone is useless, and
// so is its refresh token, so the key is kept with the tokens it binds: exported once, stored encrypted
// in the server's credential entry, imported on the next run. RFC 9449 prefers keys that cannot be
// exported; Atrium trades that for sign-ins that survive a restart, with the key exactly as protected
// as the refresh token beside it.

import { createHash } from 'node:crypto';
import type { webcrypto } from 'node:crypto';
import { DpopSession, generateDpopKeyPair } from '@modelcontextprotocol/client';

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;

/** A DPoP session over the stored key, or over a new one; `privateJwk` is what to store. */
export async function openDpopSession(stored: webcrypto.JsonWebKey | undefined): Promise<{ session: DpopSession; privateJwk: webcrypto.JsonWebKey }> {
  if (stored?.kty === 'EC' && stored.crv === 'P-256' && stored.d && stored.x && stored.y) {
    const publicJwk = { kty: 'EC', crv: 'P-256', x: stored.x, y: stored.y };
    const [privateKey, publicKey] = await Promise.all([
      crypto.subtle.importKey('jwk', stored, ALGORITHM, false, ['sign']),
      crypto.subtle.importKey('jwk', publicJwk, ALGORITHM, true, ['verify']),
    ]);
    const session = await DpopSession.create({ keyPair: { privateKey, publicKey, publicJwk, thumbprint: thumbprintOf(publicJwk), alg: 'ES256' } });
    return { session, privateJwk: stored };
  }
  const keyPair = await generateDpopKeyPair({ alg: 'ES256', extractable: true });
  const privateJwk = await crypto.subtle.exportKey('jwk', keyPair.privateKey);
  return { session: await DpopSession.create({ keyPair }), privateJwk };
}

/** RFC 7638 JWK thumbprint of an EC public key: SHA-256 over its required members in lexical order. */
function thumbprintOf(jwk: { crv: string; kty: string; x: string; y: string }): string {
  return createHash('sha256').update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y })).digest('base64url');
}
