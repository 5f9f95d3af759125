import { isIPv4, isIPv6 } from 'node:net';

/**
 * The client a per-address limit counts: an IPv4 address as it is, an IPv6 address by its /64.
 * A single host (a home line, a VPS) is routinely given a whole /64 and can pick any of its 2^64
 * interface ids per request, so counting full IPv6 addresses would let it dodge the limit. IPv4-mapped
 * IPv6 addresses (`::ffff:192.0.2.1`) count as the IPv4 address they carry.
 */
export function addressSubject(sourceIp: string): string {
  if (!isIPv6(sourceIp)) return sourceIp;
  const groups = expandIPv6(sourceIp);
  if (groups.slice(0, 6).every((group, index) => group === (index === 5 ? 0xffff : 0))) {
    const [high, low] = [groups[6] as number, groups[7] as number];
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 split). */
function expandIPv6(address: string): number[] {
  const withoutZone = address.split('%')[0] as string;
  const [head = '', tail] = withoutZone.split('::') as [string, string | undefined];
  const parse = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!isIPv4(group)) return [Number.parseInt(group, 16)];
          const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}
