import { originList } from '#shared/config/env';

/** A passkey ceremony's relying party: the host name passkeys are bound to, and the origin signed for. */
export interface RelyingParty {
  /** Never an IP address (WebAuthn refuses them). */
  rpId: string;
  origin: string;
}

export interface PasskeyConfig {
  /**
   * The dashboard's origin and relying party when configured (`PASSKEY_ORIGIN`: `npm start` sets
   * `http://localhost:<port>`, the stack `https://<domainName>`); undefined behind the stack's own
   * CloudFront name, which no function can know (it would depend on the distribution that depends
   * on the API): then the dashboard's host as the distribution reports it (`http/origin.ts`).
   */
  fixed: RelyingParty | undefined;
  /** Shown by the authenticator beside the account name. */
  rpName: string;
}

/** The relying party of a dashboard origin; an IP address cannot be one (use localhost locally). */
export function relyingPartyOf(origin: string, rpIdOverride?: string): RelyingParty | undefined {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return undefined;
  }
  const rpId = (rpIdOverride || url.hostname).toLowerCase();
  if (/^[\d.]+$/.test(rpId) || rpId.includes(':') || rpId.startsWith('[')) return undefined;
  if (url.hostname !== rpId && !url.hostname.endsWith(`.${rpId}`)) return undefined;
  return { rpId, origin: url.origin };
}

let passkeys: PasskeyConfig | undefined;

/** Separate from `config()`: only the passkey functions read it (issue 15). */
export function passkeyConfig(): PasskeyConfig {
  if (passkeys) return passkeys;
  const origins = originList('PASSKEY_ORIGIN');
  if (origins.length > 1)
    throw new Error('PASSKEY_ORIGIN must be one origin such as https://files.example.com');
  const fixed = origins[0] === undefined ? undefined : relyingPartyOf(origins[0], process.env.PASSKEY_RP_ID);
  if (origins[0] !== undefined && !fixed)
    throw new Error(
      `PASSKEY_ORIGIN ${origins[0]}: passkeys need a domain name (not an IP address; locally http://localhost:<port>), and PASSKEY_RP_ID must be that name or a parent domain of it`,
    );
  passkeys = { fixed, rpName: process.env.PASSKEY_RP_NAME || 'File service' };
  return passkeys;
}
