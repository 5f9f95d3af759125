import { Badge, Group } from '@mantine/core';
import { IconClockHour4, IconEyeOff, IconLock } from '@tabler/icons-react';
import type { FileResource } from '../../api/types.ts';
import { TagChips } from './TagChips.tsx';

/** "Expires soon": within a day, the time a shared link is typically still passed around. */
export const EXPIRING_SOON_MS = 24 * 60 * 60 * 1000;

/** What a file's link does differently: asks a password, is out of views, or goes away soon. */
export function fileStates(file: FileResource, now = Date.now()) {
  const left = file.deletesAt === null ? null : new Date(file.deletesAt).getTime() - now;
  return {
    protected: file.password,
    viewsUsedUp: file.maxViews !== null && file.views >= file.maxViews,
    expiringSoon: left !== null && left <= EXPIRING_SOON_MS,
  };
}

/** The states as badges (filled dark, or yellow with dark text: 4.5:1 in both themes), then the tags. */
export function FileBadges({ file }: { file: FileResource }) {
  const states = fileStates(file);
  if (!states.protected && !states.viewsUsedUp && !states.expiringSoon && file.tags.length === 0) return null;
  return (
    <Group gap={4} wrap="wrap">
      {states.protected && (
        <Badge size="sm" color="blue.9" leftSection={<IconLock size={12} aria-hidden />}>
          Protected
        </Badge>
      )}
      {states.viewsUsedUp && (
        <Badge size="sm" color="red.9" leftSection={<IconEyeOff size={12} aria-hidden />}>
          Views used up
        </Badge>
      )}
      {states.expiringSoon && (
        <Badge
          size="sm"
          color="yellow.4"
          autoContrast
          leftSection={<IconClockHour4 size={12} aria-hidden />}
          title={file.deletesAt ? `Expires ${new Date(file.deletesAt).toLocaleString()}` : undefined}
        >
          Expires soon
        </Badge>
      )}
      <TagChips tags={file.tags} />
    </Group>
  );
}
