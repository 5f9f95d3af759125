import type { Quota } from '#shared/users/model';

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3, tb: 1024 ** 4 };

/** `maxBytes` as stored: plain bytes ("1048576") or with a binary unit ("100mb", "1.5 GB"). */
export function parseByteSize(value: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb|tb)?\s*$/i.exec(value);
  if (!match) return undefined;
  const bytes = Math.floor(Number(match[1]) * (UNITS[(match[2] ?? 'b').toLowerCase()] as number));
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

/** What the quota allows, as limits on the counters; an unparsable maxBytes allows nothing. */
export interface QuotaLimits {
  maxFiles: number | undefined;
  maxBytes: number | undefined;
}

export function quotaLimits(quota: Quota | null): QuotaLimits {
  if (quota?.filesQuota === 'BY_FILES' && quota.maxFiles !== null) {
    return { maxFiles: quota.maxFiles, maxBytes: undefined };
  }
  if (quota?.filesQuota === 'BY_BYTES' && quota.maxBytes !== null) {
    return { maxFiles: undefined, maxBytes: parseByteSize(quota.maxBytes) ?? 0 };
  }
  return { maxFiles: undefined, maxBytes: undefined };
}
