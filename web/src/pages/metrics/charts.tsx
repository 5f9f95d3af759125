import { AreaChart, BarChart, DonutChart } from '@mantine/charts';
import { Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatBytes, formatDay } from '../../api/format.ts';
import type { Metric, MetricData } from '../../api/metrics.ts';

const COLORS = [
  'blue.6',
  'teal.6',
  'grape.6',
  'orange.6',
  'cyan.6',
  'pink.6',
  'lime.7',
  'indigo.6',
  'red.6',
  'yellow.7',
];

/** A chart in a card, named for screen readers; the figures it draws are in the cards or tables beside. */
function ChartCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder padding="md" component="figure" m={0} aria-label={title}>
      <Title order={3} size="h5" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** Files and storage day by day, oldest first (the API answers newest first). */
export function OverTime({ metrics }: { metrics: Metric[] }) {
  const days = [...metrics].reverse().map((metric) => ({
    day: formatDay(metric.createdAt),
    Files: metric.data.files,
    Storage: metric.data.storage,
    Users: metric.data.users,
  }));
  return (
    <>
      <ChartCard title="Files and users over time">
        <AreaChart
          h={220}
          data={days}
          dataKey="day"
          series={[
            { name: 'Files', color: 'blue.6' },
            { name: 'Users', color: 'teal.6' },
          ]}
          curveType="monotone"
          withLegend
          tickLine="none"
        />
      </ChartCard>
      <ChartCard title="Storage over time">
        <AreaChart
          h={220}
          data={days}
          dataKey="day"
          series={[{ name: 'Storage', color: 'grape.6' }]}
          curveType="monotone"
          valueFormatter={formatBytes}
          tickLine="none"
        />
      </ChartCard>
    </>
  );
}

/** The most common types of the newest day, as a donut and its legend. */
export function FilesByType({ data }: { data: MetricData }) {
  const slices = data.types.map((entry, index) => ({
    name: entry.type,
    value: entry.sum,
    color: COLORS[index % COLORS.length] as string,
  }));
  return (
    <ChartCard title="Files by type">
      {slices.length === 0 ? (
        <Text c="dimmed">No files yet.</Text>
      ) : (
        <Group align="center" wrap="wrap" gap="lg">
          <DonutChart data={slices} size={160} thickness={26} withTooltip tooltipDataSource="segment" />
          <Stack gap={4} style={{ flex: '1 1 200px', minWidth: 0 }}>
            {slices.map((slice) => (
              <Group key={slice.name} justify="space-between" wrap="nowrap" gap="xs">
                <Text size="sm" truncate="end" title={slice.name}>
                  {slice.name}
                </Text>
                <Text size="sm" fw={600}>
                  {slice.value.toLocaleString()}
                </Text>
              </Group>
            ))}
          </Stack>
        </Group>
      )}
    </ChartCard>
  );
}

/** The users with the most files on the newest day: a bar each, then the table of their figures. */
export function TopUsers({ data }: { data: MetricData }) {
  const users = data.filesUsers.map((user) => ({
    user: user.username ?? '(deleted)',
    Files: user.sum,
    ...user,
  }));
  return (
    <ChartCard title="Top users">
      {users.length === 0 ? (
        <Text c="dimmed">No files yet.</Text>
      ) : (
        <>
          <BarChart
            h={Math.max(120, users.length * 32)}
            data={users}
            dataKey="user"
            orientation="vertical"
            yAxisProps={{ width: 110 }}
            series={[{ name: 'Files', color: 'blue.6' }]}
            tickLine="none"
          />
          {/* No scroll container: four short columns fit a phone, and a long name wraps. */}
          <Table striped fz="sm" mt="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>User</Table.Th>
                <Table.Th ta="right">Files</Table.Th>
                <Table.Th ta="right">Storage</Table.Th>
                <Table.Th ta="right">Views</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.map((user) => (
                <Table.Tr key={user.user}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{user.user}</Table.Td>
                  <Table.Td ta="right">{user.sum.toLocaleString()}</Table.Td>
                  <Table.Td ta="right">{formatBytes(user.storage)}</Table.Td>
                  <Table.Td ta="right">{user.views.toLocaleString()}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
    </ChartCard>
  );
}
