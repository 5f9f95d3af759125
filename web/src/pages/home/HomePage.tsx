import { Alert, Anchor, Badge, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconDatabase, IconEye, IconFiles, IconLink, IconStar } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { formatBytes } from '../../api/format.ts';
import { type UserStats, useRecentFiles, useUserStats } from '../../api/home.ts';
import { useCurrentUser } from '../../api/session.ts';
import type { FileResource } from '../../api/types.ts';
import { FileDetail } from '../files/FileDetail.tsx';
import { QuickUpload } from './QuickUpload.tsx';
import { RecentFiles } from './RecentFiles.tsx';

const count = new Intl.NumberFormat();

function StatCard(props: { label: string; value: string; detail?: string; icon: typeof IconFiles }) {
  const Icon = props.icon;
  return (
    <Paper withBorder p="md" radius="md" role="listitem" aria-label={props.label}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            {props.label}
          </Text>
          <Text size="xl" fw={700}>
            {props.value}
          </Text>
          {props.detail && (
            <Text size="xs" c="dimmed">
              {props.detail}
            </Text>
          )}
        </div>
        <Icon size={28} stroke={1.5} aria-hidden color="var(--mantine-color-dimmed)" />
      </Group>
    </Paper>
  );
}

function StatCards({ stats }: { stats: UserStats }) {
  const average = (value: number, digits = 1) => value.toFixed(value < 10 ? digits : 0);
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} role="list" aria-label="Your figures">
      <StatCard label="Files" value={count.format(stats.filesUploaded)} icon={IconFiles} />
      <StatCard
        label="Storage used"
        value={formatBytes(stats.storageUsed)}
        detail={stats.filesUploaded ? `${formatBytes(Math.round(stats.avgStorageUsed))} a file` : undefined}
        icon={IconDatabase}
      />
      <StatCard
        label="Views"
        value={count.format(stats.views)}
        detail={`${average(stats.avgViews)} a file`}
        icon={IconEye}
      />
      <StatCard label="Favourites" value={count.format(stats.favoriteFiles)} icon={IconStar} />
      <StatCard
        label="Short links"
        value={count.format(stats.urlsCreated)}
        detail={`${count.format(stats.urlViews)} views`}
        icon={IconLink}
      />
    </SimpleGrid>
  );
}

/** Files by type, the most common first: badges, as many as there are types. */
function TypeCounts({ types }: { types: Record<string, number> }) {
  const sorted = Object.entries(types).sort(([, a], [, b]) => b - a);
  if (sorted.length === 0) return null;
  return (
    <Group gap="xs" aria-label="Files by type" role="list">
      {sorted.map(([type, files]) => (
        <Badge key={type} variant="light" role="listitem" tt="none">
          {type}: {count.format(files)}
        </Badge>
      ))}
    </Group>
  );
}

/** The landing page after sign-in: the caller's figures, their newest files, a quick upload. */
export default function HomePage() {
  const { data: current } = useCurrentUser();
  const stats = useUserStats();
  const recent = useRecentFiles();
  const [detail, setDetail] = useState<FileResource | null>(null);
  const error = stats.error ?? recent.error;
  return (
    <Stack gap="lg" maw={1200}>
      <Title order={1}>Welcome back{current ? `, ${current.user.username}` : ''}</Title>
      {error && (
        <Alert color="red" role="alert">
          {errorMessage(error)}
        </Alert>
      )}
      {stats.data ? (
        <Stack gap="sm">
          <StatCards stats={stats.data} />
          <TypeCounts types={stats.data.sortTypeCount} />
        </Stack>
      ) : (
        !error && <Loader role="status" aria-label="Loading your figures" />
      )}
      <QuickUpload />
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={2} size="h3">
            Recent files
          </Title>
          <Anchor component={Link} to="/files">
            All files
          </Anchor>
        </Group>
        {recent.data && <RecentFiles files={recent.data} onOpen={setDetail} />}
      </Stack>
      {detail && <FileDetail initial={detail} onClose={() => setDetail(null)} />}
    </Stack>
  );
}
