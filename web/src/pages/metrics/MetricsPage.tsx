import '@mantine/charts/styles.css';
import {
  Alert,
  Card,
  Group,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { formatBytes, formatDate } from '../../api/format.ts';
import { fetchMetrics, RANGES, type Range } from '../../api/metrics.ts';
import { FilesByType, OverTime, TopUsers } from './charts.tsx';

/**
 * The instance's figures for administrators (docs/metrics.md): the newest day's totals, files,
 * users and storage over the chosen range, files by type and the top users. The figures are taken
 * once a day, so the page says when.
 */
export default function MetricsPage() {
  const [range, setRange] = useState<Range>('30');
  const metrics = useQuery({ queryKey: ['metrics', range], queryFn: () => fetchMetrics(range) });
  const latest = metrics.data?.[0];

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          Metrics
        </Title>
        <SegmentedControl
          aria-label="Range"
          value={range}
          onChange={(value) => setRange(value as Range)}
          data={Object.entries(RANGES).map(([value, label]) => ({ value, label }))}
        />
      </Group>
      {metrics.isPending && <Skeleton h={300} />}
      {metrics.error && (
        <Alert color="red" title="The figures could not be loaded">
          {errorMessage(metrics.error)}
        </Alert>
      )}
      {metrics.data && !latest && (
        <Alert color="blue" title="No figures yet">
          The instance&apos;s figures are taken once a day; the first day appears after its run.
        </Alert>
      )}
      {latest && (
        <>
          <Text c="dimmed" size="sm">
            Figures of {formatDate(latest.updatedAt)}, taken once a day.
          </Text>
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
            {[
              ['Users', latest.data.users.toLocaleString()],
              ['Files', latest.data.files.toLocaleString()],
              ['Storage', formatBytes(latest.data.storage)],
              ['File views', latest.data.fileViews.toLocaleString()],
              ['Short links', latest.data.urls.toLocaleString()],
              ['Link views', latest.data.urlViews.toLocaleString()],
            ].map(([label, value]) => (
              <Card key={label} withBorder padding="sm">
                <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
                  {label}
                </Text>
                <Text fw={700} size="xl">
                  {value}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <OverTime metrics={metrics.data ?? []} />
            <FilesByType data={latest.data} />
            <TopUsers data={latest.data} />
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
