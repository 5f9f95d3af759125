import { Alert, Badge, Button, Group, Loader, Progress, Stack, Text } from '@mantine/core';
import { IconDownload, IconFileZip, IconTrash } from '@tabler/icons-react';
import { errorMessage } from '../../api/client.ts';
import {
  type ExportResource,
  exportDownloadUrl,
  useDeleteExport,
  useExports,
  useStartExport,
} from '../../api/exports.ts';
import { formatBytes, formatDate } from '../../api/format.ts';
import { confirmDestructive } from '../../components/confirm.tsx';
import { Section } from './Section.tsx';

const STATE_BADGES = {
  running: { label: 'Running', color: 'blue.8' },
  completed: { label: 'Ready', color: 'teal.9' },
  failed: { label: 'Failed', color: 'red.8' },
} as const;

const count = new Intl.NumberFormat();

/** "1,200 of 5,000 files · 1.2 GB of 9.8 GB" while it runs (totals known once the run has listed the files). */
function progressText(record: ExportResource) {
  if (record.files === 0) return 'Listing your files…';
  return `${count.format(record.filesDone)} of ${count.format(record.files)} files · ${formatBytes(record.bytesDone)} of ${formatBytes(record.bytes)}`;
}

function ExportRow({ record }: { record: ExportResource }) {
  const remove = useDeleteExport();
  const badge = STATE_BADGES[record.state];
  const label = `Export of ${formatDate(record.createdAt)}`;
  const share = record.bytes > 0 ? (record.bytesDone / record.bytes) * 100 : 0;
  return (
    <Stack gap={6} role="listitem" aria-label={label}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="nowrap" miw={0}>
          <IconFileZip size={28} stroke={1.5} aria-hidden />
          <div style={{ minWidth: 0 }}>
            <Group gap="xs">
              <Text fw={500}>{formatDate(record.createdAt)}</Text>
              <Badge color={badge.color} size="sm">
                {badge.label}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {record.state === 'completed'
                ? `${count.format(record.filesDone)} files · ${formatBytes(Number(record.size))} zip · until ${formatDate(record.expiresAt)}`
                : record.state === 'running'
                  ? progressText(record)
                  : record.error}
            </Text>
          </div>
        </Group>
        <Group gap="xs">
          {record.state === 'completed' && (
            <Button
              component="a"
              href={exportDownloadUrl(record.id)}
              leftSection={<IconDownload size={16} />}
              aria-label={`Download the ${label.toLowerCase()}`}
            >
              Download
            </Button>
          )}
          <Button
            variant="default"
            color="red"
            leftSection={<IconTrash size={16} />}
            loading={remove.isPending}
            aria-label={`Delete the ${label.toLowerCase()}`}
            onClick={() =>
              confirmDestructive({
                title: record.state === 'running' ? 'Stop and delete this export?' : 'Delete this export?',
                message:
                  record.state === 'running'
                    ? 'The export stops before its next file and nothing of it is kept.'
                    : 'Its zip is deleted; your files stay as they are.',
                confirm: 'Delete export',
                onConfirm: () => remove.mutate(record.id),
              })
            }
          >
            Delete
          </Button>
        </Group>
      </Group>
      {record.state === 'running' && (
        <Progress value={share} animated aria-label={`Progress of the ${label.toLowerCase()}`} />
      )}
      {remove.error && (
        <Text size="sm" c="red" role="alert">
          {errorMessage(remove.error)}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Exports of every file (issue 36): start one, follow its progress, download its zip through a link
 * made on each click (valid 5 minutes), delete it. A second export while one runs is the API's 409,
 * whose message is shown as it is.
 */
export function ExportTab() {
  const { data, error } = useExports();
  const start = useStartExport();
  const failure = error ?? start.error;
  return (
    <Stack maw={760}>
      <Section
        title="Export your files"
        intro="A zip of every file you uploaded, with a manifest.json of their details (names, types, dates, views). An export is kept for 7 days; the download link is made when you click it."
      >
        <Group mb="md">
          <Button
            leftSection={<IconFileZip size={16} />}
            loading={start.isPending}
            onClick={() => start.mutate()}
          >
            Start an export
          </Button>
        </Group>
        {failure && (
          <Alert color="red" role="alert" mb="sm" title="The export did not start">
            {errorMessage(failure)}
          </Alert>
        )}
        {!data ? (
          !error && <Loader role="status" aria-label="Loading exports" />
        ) : data.length === 0 ? (
          <Text c="dimmed">No exports yet.</Text>
        ) : (
          <Stack gap="lg" role="list" aria-label="Exports">
            {data.map((record) => (
              <ExportRow key={record.id} record={record} />
            ))}
          </Stack>
        )}
      </Section>
    </Stack>
  );
}
