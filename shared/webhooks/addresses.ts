import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Where a webhook may never go (docs/webhooks.md#forbidden-addresses): an administrator's URL, or a
 * name whose DNS answer an attacker controls, must not reach the function's own host, the cloud's
 * metadata service or a private network. Checked on the addresses DNS answered, in the lookup the
 * connection itself uses, so the address checked is the address connected to.
 */
const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local: 169.254.169.254 is the cloud's metadata service
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64: an IPv4 address behind it could be any of the above
  ['64:ff9b:1::', 48], // local NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID…)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds any IPv4 address
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');
}
// IPv4-mapped IPv6 (::ffff:a.b.c.d) is checked against the IPv4 rules by BlockList itself.

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * `WEBHOOKS_ALLOW_LOOPBACK=true` lets webhooks reach loopback (127.0.0.0/8, ::1) and plain http: set
 * by the local runner and the tests, whose receivers listen on 127.0.0.1; never by the stack
 * (tests/infra/webhooks.test.ts). Private and link-local addresses stay refused with it.
 */
export const loopbackAllowed = (): boolean => process.env.WEBHOOKS_ALLOW_LOOPBACK === 'true';

/** Whether a webhook may connect to this IP address. */
export function isForbiddenAddress(address: string, allowLoopback: boolean): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (allowLoopback && LOOPBACK.check(address, type)) return false;
  return FORBIDDEN.check(address, type);
}

/** A refusal that no retry can change (the address, the scheme): logged and counted, not retried. */
export class ForbiddenTarget extends Error {
  override name = 'ForbiddenTarget';
}

/**
 * The lookup a webhook's connection uses: the system resolver's every answer for the name, refused
 * whole when any of them is forbidden (a name answering one public and one private address could be
 * connected to either).
 */
export function guardedLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { family: options.family ?? 0, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((entry) => isForbiddenAddress(entry.address, allowLoopback));
      if (refused || addresses.length === 0) {
        return callback(new ForbiddenTarget(`${hostname} resolves to a forbidden address`), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const [first] = addresses as [LookupAddress];
      return callback(null, first.address, first.family);
    });
  };
}

/** A URL's host as an IP address when it is one (`[::1]` → `::1`), else undefined. */
export function literalAddress(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) ? host : undefined;
}

/**
 * Why a webhook URL cannot be used, or undefined: a scheme other than https (http only with the
 * loopback allowance), credentials in it, or an IP literal that is forbidden. A name's addresses are
 * checked when it is called (guardedLookup), since DNS can answer differently then.
 */
export function webhookUrlProblem(value: string, allowLoopback = loopbackAllowed()): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a URL such as https://discord.com/api/webhooks/…';
  }
  if (url.protocol !== 'https:' && !(allowLoopback && url.protocol === 'http:'))
    return 'must be an https:// URL';
  if (url.username || url.password) return 'must not carry a user name or password';
  const literal = literalAddress(url);
  if (literal !== undefined && isForbiddenAddress(literal, allowLoopback)) {
    return 'must not point to a loopback, link-local or private address';
  }
  return undefined;
}

/**
 * A webhook URL as logs may show it: scheme and host only. Discord's URLs carry their token in the
 * path (`/api/webhooks/<id>/<token>`), and any receiver's path or query may carry one too.
 */
export function redactedUrl(value: string): string {
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.host}/…`;
  } catch {
    return '(not a URL)';
  }
}
