import QRCode from 'qrcode';
import { offeredSecret } from '#shared/mfa/sealing';
import { totpUri } from '#shared/mfa/totp-code';
import { isTotpEnabled, type UserRecord } from '#shared/users/model';

/** The enrolment offer: on its own, so only its function bundles the QR code renderer. */
const ISSUER = 'File service';

export type TotpOffer = { enabled: true } | { secret: string; qrcode: string };

/** While TOTP is off: the secret to enrol and its `otpauth://` URI as a QR code (PNG data URL). */
export async function totpOffer(user: UserRecord, host: string | undefined): Promise<TotpOffer> {
  if (isTotpEnabled(user)) return { enabled: true };
  const secret = await offeredSecret(user.id, user.totpEnrolments ?? 0);
  // The host tells a user's deployments apart in the authenticator app.
  const issuer = host ? `${ISSUER} (${host})` : ISSUER;
  const qrcode = await QRCode.toDataURL(totpUri(secret, issuer, user.username), {
    errorCorrectionLevel: 'M',
  });
  return { secret, qrcode };
}
