import { Text } from '@mantine/core';
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
function usageText(user: ListedUser) {
  if (!user.usage) return '–';
  const { files, bytes } = user.usage;
  // No-break spaces: a narrow column wraps after the dot, never between a number and its unit.
  return `${files}\u00a0${files === 1 ? 'file' : 'files'} · ${formatBytes(bytes).replace(' ', '\u00a0')}`;
}

/** The usage; on a phone, which has no room for the quota's own column, the quota under it. */
export function UsageCell({ user }: { user: ListedUser }) {
  return (
    <>
      <Text size="sm">{usageText(user)}</Text>
      <Text size="xs" c="dimmed" hiddenFrom="sm">
        Quota: {quotaText(user)}
      </Text>
    </>
  );
}
