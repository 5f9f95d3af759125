import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software WebAuthn authenticator for the HTTP tests (the browser tests use Chromium's virtual
 * one): an ES256 key per credential, discoverable, user-verifying, and a signature counter the test
 * sets, so a test can answer the service's options exactly as a browser would, or wrongly on purpose
 * (another origin, a stale challenge, a counter that went back).
 */
const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

/** Flags: user present (UP), user verified (UV), attested credential data (AT). */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
  userHandle: string;
  counter: number;
}

export interface Ceremony {
  origin?: string;
  rpId?: string;
  /** The signature counter to report (defaults to the credential's next value). */
  counter?: number;
  userVerified?: boolean;
  /** Sign over this challenge instead of the options' one. */
  challenge?: string;
}

function coseKey(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  return isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x as string, 'base64url')],
      [-3, Buffer.from(jwk.y as string, 'base64url')],
    ]),
  );
}

function authenticatorData(rpId: string, flags: number, counter: number, attested?: Uint8Array): Buffer {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter);
  return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
}

const clientData = (type: string, challenge: string, origin: string) =>
  Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

/** Answers registration options: a new credential and the body `POST /api/user/passkeys` takes. */
export function register(options: CreationOptions, ceremony: Ceremony = {}) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const id = randomBytes(16);
  const credential: Credential = { id, privateKey, publicKey, userHandle: options.user.id, counter: 0 };
  const idLength = Buffer.alloc(2);
  idLength.writeUInt16BE(id.length);
  const attested = Buffer.concat([Buffer.alloc(16), idLength, id, coseKey(publicKey)]);
  const flags = UP | AT | (ceremony.userVerified === false ? 0 : UV);
  const authData = authenticatorData(ceremony.rpId ?? options.rp.id ?? 'localhost', flags, 0, attested);
  const attestationObject = isoCBOR.encode(
    new Map<string, unknown>([
      ['fmt', 'none'],
      ['attStmt', new Map()],
      ['authData', authData],
    ]) as Parameters<typeof isoCBOR.encode>[0],
  );
  const response = {
    id: b64url(id),
    rawId: b64url(id),
    type: 'public-key',
    clientExtensionResults: {},
    response: {
      clientDataJSON: b64url(
        clientData(
          'webauthn.create',
          ceremony.challenge ?? options.challenge,
          ceremony.origin ?? 'http://localhost:3000',
        ),
      ),
      attestationObject: b64url(attestationObject),
      transports: ['internal'],
    },
  };
  return { credential, response };
}

/** Answers sign-in options with the credential: the body `POST /api/auth/passkey` takes. */
export function assert(
  credential: Credential,
  options: { challenge: string; rpId?: string },
  ceremony: Ceremony = {},
) {
  const counter = ceremony.counter ?? credential.counter + 1;
  credential.counter = counter;
  const flags = UP | (ceremony.userVerified === false ? 0 : UV);
  const authData = authenticatorData(ceremony.rpId ?? options.rpId ?? 'localhost', flags, counter);
  const data = clientData(
    'webauthn.get',
    ceremony.challenge ?? options.challenge,
    ceremony.origin ?? 'http://localhost:3000',
  );
  const signature = sign('sha256', Buffer.concat([authData, sha256(data)]), credential.privateKey);
  return {
    response: {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(data),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
    },
  };
}
