import * as v from 'valibot';
import { NO_CONTROL_CHARACTERS, strictMessage } from '#shared/validation/text';

/**
 * Bodies of the passkey routes (issue 15). The browser's answers (`response`) are what
 * @simplewebauthn/browser sends: their fields are checked for type and size here, their content by
 * the WebAuthn verification; properties the browser adds beyond these are dropped.
 */

const base64url = (name: string, max: number) =>
  v.pipe(
    v.string(`${name} must be a string`),
    v.maxLength(max, `${name} is too long`),
    v.regex(/^[A-Za-z0-9_-]*={0,2}$/, `${name} must be base64url`),
  );

const credentialId = v.pipe(base64url('id', 1364), v.minLength(1, 'id must not be empty'));

const optionalBase64url = (name: string, max: number) => v.optional(base64url(name, max));

export const passkeyNameSchema = v.pipe(
  v.string('name must be a string'),
  v.trim(),
  v.minLength(1, 'name must not be empty'),
  v.maxLength(64, 'name must be at most 64 characters'),
  v.regex(NO_CONTROL_CHARACTERS, 'name must not contain control characters'),
);

const credentialFields = {
  id: credentialId,
  rawId: credentialId,
  type: v.literal('public-key', 'type must be public-key'),
  clientExtensionResults: v.optional(v.record(v.string(), v.unknown()), {}),
  authenticatorAttachment: v.optional(
    v.picklist(['platform', 'cross-platform'], 'authenticatorAttachment is not known'),
  ),
};

const TRANSPORTS = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const;

const registrationResponse = v.object(
  {
    ...credentialFields,
    response: v.object({
      clientDataJSON: base64url('clientDataJSON', 4096),
      attestationObject: base64url('attestationObject', 32768),
      authenticatorData: optionalBase64url('authenticatorData', 32768),
      publicKey: optionalBase64url('publicKey', 4096),
      publicKeyAlgorithm: v.optional(v.number()),
      transports: v.optional(v.array(v.picklist(TRANSPORTS, 'transport is not known'))),
    }),
  },
  'response must be an object',
);

const authenticationResponse = v.object(
  {
    ...credentialFields,
    response: v.object({
      clientDataJSON: base64url('clientDataJSON', 4096),
      authenticatorData: base64url('authenticatorData', 32768),
      signature: base64url('signature', 4096),
      userHandle: optionalBase64url('userHandle', 256),
    }),
  },
  'response must be an object',
);

/** `POST /api/user/passkeys {response, name?}`: the browser's registration answer and a name for it. */
export const passkeyRegistrationSchema = v.strictObject(
  { response: registrationResponse, name: v.optional(passkeyNameSchema, 'Passkey') },
  strictMessage,
);

/** `PATCH /api/user/passkeys/{id} {name}`. */
export const passkeyRenameSchema = v.strictObject({ name: passkeyNameSchema }, strictMessage);

/** `POST /api/auth/passkey {response}`: the browser's answer to the sign-in options. */
export const passkeySignInSchema = v.strictObject({ response: authenticationResponse }, strictMessage);
