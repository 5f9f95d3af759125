import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { passkeyConfig, type RelyingParty } from '#shared/config/passkeys';
import { invalid, ServiceError } from '#shared/errors';
import { logger } from '#shared/log/logger';
import {
  CHALLENGE_SECONDS,
  type ChallengePurpose,
  consumeChallenge,
  storeChallenge,
} from '#shared/passkeys/challenges';
import { addPasskey, findCredential, MAX_PASSKEYS, recordUse } from '#shared/passkeys/credentials';
import type { UserRecord } from '#shared/users/model';
import { getUser } from '#shared/users/store';

/**
 * The two WebAuthn ceremonies (issue 15), done by @simplewebauthn/server: registering a passkey for
 * the signed-in user, and signing in with one (discoverable credentials: the browser offers the
 * user's passkeys for this site, no username asked). Both hand out a challenge kept server-side
 * (`challenges.ts`), and require user verification (the device's PIN or biometrics), so a passkey
 * alone is a full sign-in.
 */

const TIMEOUT_MS = CHALLENGE_SECONDS * 1000;

/** The challenge the browser signed, from its client data; the library then checks it is this one. */
function signedChallenge(clientDataJSON: string): string | undefined {
  try {
    const clientData: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    const challenge = (clientData as { challenge?: unknown }).challenge;
    return typeof challenge === 'string' && challenge.length <= 256 ? challenge : undefined;
  } catch {
    return undefined;
  }
}

async function consumeSigned(clientDataJSON: string, purpose: ChallengePurpose): Promise<string | undefined> {
  const challenge = signedChallenge(clientDataJSON);
  return challenge !== undefined && (await consumeChallenge(challenge, purpose)) ? challenge : undefined;
}

export async function registrationOptions(
  user: UserRecord,
  party: RelyingParty,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  if (user.passkeys.length >= MAX_PASSKEYS)
    throw invalid(`an account has at most ${MAX_PASSKEYS} passkeys: delete one first`);
  const options = await generateRegistrationOptions({
    rpName: passkeyConfig().rpName,
    rpID: party.rpId,
    userName: user.username,
    userID: new TextEncoder().encode(user.id),
    timeout: TIMEOUT_MS,
    attestationType: 'none',
    // The same authenticator twice is refused by the browser itself.
    excludeCredentials: user.passkeys.map((passkey) => ({ id: passkey.id })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await storeChallenge(options.challenge, { registerFor: user.id });
  return options;
}

export const REGISTRATION_EXPIRED = 'the passkey registration expired or was already answered: start again';
export const REGISTRATION_REFUSED = 'the passkey could not be verified: try again';

/** Verifies the browser's answer to `registrationOptions` and adds the passkey to the user. */
export async function registerPasskey(
  user: UserRecord,
  response: RegistrationResponseJSON,
  name: string,
  party: RelyingParty,
): Promise<UserRecord> {
  const challenge = await consumeSigned(response.response.clientDataJSON, { registerFor: user.id });
  if (!challenge) throw invalid(REGISTRATION_EXPIRED);
  let credential: NonNullable<
    Awaited<ReturnType<typeof verifyRegistrationResponse>>['registrationInfo']
  >['credential'];
  try {
    const verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: party.origin,
      expectedRPID: party.rpId,
      requireUserVerification: true,
    });
    if (!verification.verified || !verification.registrationInfo) throw new Error('not verified');
    credential = verification.registrationInfo.credential;
  } catch (error) {
    logger.info('passkey registration refused', {
      reason: error instanceof Error ? error.message : 'unknown',
    });
    throw invalid(REGISTRATION_REFUSED);
  }
  return addPasskey(
    user,
    {
      id: credential.id,
      publicKey: credential.publicKey,
      counter: credential.counter,
      transports: credential.transports ?? [],
      rpId: party.rpId,
    },
    name,
  );
}

export async function signInOptions(party: RelyingParty): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await generateAuthenticationOptions({
    rpID: party.rpId,
    timeout: TIMEOUT_MS,
    userVerification: 'required',
  });
  await storeChallenge(options.challenge, 'sign-in');
  return options;
}

/** Every failed passkey sign-in gets this one answer (401). */
export const PASSKEY_SIGN_IN_FAILED = 'passkey sign-in failed';
const refused = () => new ServiceError('unauthenticated', PASSKEY_SIGN_IN_FAILED);

/**
 * Verifies the browser's answer to `signInOptions`: an unexpired challenge used once, a credential
 * registered here whose owner is the user handle the authenticator returned, a valid signature with
 * user verification, and a signature counter that moved on from the stored one (recorded by a
 * conditional update, so a cloned authenticator or a replay racing the original is refused).
 * Returns the user to open a session for.
 */
export async function verifyPasskeySignIn(
  response: AuthenticationResponseJSON,
  party: RelyingParty,
): Promise<UserRecord> {
  const challenge = await consumeSigned(response.response.clientDataJSON, 'sign-in');
  if (!challenge) throw refused();
  const credential = await findCredential(response.id);
  // A passkey signs in only where it was registered.
  if (!credential || credential.rpId !== party.rpId) throw refused();
  const user = await getUser(credential.userId, { consistent: true });
  const handle = response.response.userHandle;
  if (
    !user ||
    user.deletingAt !== undefined ||
    !user.passkeys.some((passkey) => passkey.id === credential.id) ||
    (handle !== undefined && handle !== Buffer.from(user.id).toString('base64url'))
  )
    throw refused();
  let newCounter: number;
  try {
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: party.origin,
      expectedRPID: party.rpId,
      credential: {
        id: credential.id,
        publicKey: credential.publicKey,
        counter: credential.counter,
        transports: credential.transports as NonNullable<
          Parameters<typeof verifyAuthenticationResponse>[0]['credential']['transports']
        >,
      },
      requireUserVerification: true,
    });
    if (!verification.verified) throw new Error('not verified');
    newCounter = verification.authenticationInfo.newCounter;
  } catch (error) {
    logger.info('passkey sign-in refused', { reason: error instanceof Error ? error.message : 'unknown' });
    throw refused();
  }
  if (!(await recordUse(user, credential, newCounter))) throw refused();
  return user;
}
