import { formatBytes } from '../../api/format.ts';
import type { UserResource } from '../../api/types.ts';

/** A user of `GET /api/users`: the User, with what its files take (from its file counters). */
export interface ListedUser extends UserResource {
  usage?: { files: number; bytes: number };
}

/** `maxBytes` is a string in the contract: a byte count reads as a size, anything else as written. */
const bytesQuotaText = (maxBytes: string | null) =>
  maxBytes === null ? '–' : /^\d+$/.test(maxBytes) ? formatBytes(Number(maxBytes)) : maxBytes;

export function quotaText(user: UserResource) {
  if (!user.quota) return 'None';
  return user.quota.filesQuota === 'BY_BYTES'
    ? bytesQuotaText(user.quota.maxBytes)
    : `${user.quota.maxFiles ?? '–'} files`;
}

/** "3 files · 4.2 MB"; a dash when the API did not say (an older deployment). */
export function usageText(user: ListedUser) {
  if (!user.usage) return '–';
  const { files, bytes } = user.usage;
  return `${files} ${files === 1 ? 'file' : 'files'} · ${formatBytes(bytes)}`;
}
