import { ServiceError } from '#shared/errors';

/**
 * A user's quota and what it means for file writes: the one place both users (which store it) and
 * files (which enforce it) take it from, so neither imports the other: its limits, the check before
 * any byte is stored, and the refusal that check and the file writes' conditions both give.
 */
export interface Quota {
  filesQuota: 'BY_BYTES' | 'BY_FILES';
  maxBytes: string | null;
  maxFiles: number | null;
  /** Short links the user may have (links/store.ts `createLink`); absent or null: no limit. */
  maxUrls?: number | null;
}

/** Binary multiples, as the `bytes` parser Zipline clients are used to: 1 kb = 1024 bytes. */
const UNIT_BYTES: Record<string, number> = {
  b: 1,
  kb: 1024,
  kib: 1024,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
  tb: 1024 ** 4,
  tib: 1024 ** 4,
  pb: 1024 ** 5,
  pib: 1024 ** 5,
};
const BYTE_SIZE = /^(\d{1,16}(?:\.\d{1,6})?)\s*([a-z]*)$/i;

/**
 * A byte size as a decimal count ("10737418240") or with a binary unit ("10gb", "1.5 GiB"), as
 * `maxBytes` is given and stored. Undefined when the text is not a positive whole byte size. (The
 * `bytes` package knows no `kib`/`gib` units, which admin clients send: hence this parser.)
 */
export function parseByteSize(text: string): number | undefined {
  const match = BYTE_SIZE.exec(text.trim());
  if (!match) return undefined;
  const unit = UNIT_BYTES[(match[2] as string).toLowerCase() || 'b'];
  if (unit === undefined) return undefined;
  const bytes = Math.floor(Number(match[1]) * unit);
  return bytes >= 1 && bytes <= Number.MAX_SAFE_INTEGER ? bytes : undefined;
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

export const QUOTA_EXCEEDED = 'this upload would exceed your quota';

/** 413: the quota leaves no room for this write. */
export class QuotaExceeded extends ServiceError {
  constructor() {
    super('too_large', QUOTA_EXCEEDED);
  }
}

/** Checks a quota before any byte is stored; the file write's transaction is what enforces it. */
export function assertWithinQuota(limits: QuotaLimits, usage: { files: number; bytes: number }): void {
  if (
    (limits.maxFiles !== undefined && usage.files > limits.maxFiles) ||
    (limits.maxBytes !== undefined && usage.bytes > limits.maxBytes)
  ) {
    throw new QuotaExceeded();
  }
}
