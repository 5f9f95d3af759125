import { Card, SimpleGrid, Text, UnstyledButton } from '@mantine/core';
import { formatBytes, formatDate } from '../../api/format.ts';
import type { FileResource } from '../../api/types.ts';
import { FilePreview } from '../files/FilePreview.tsx';

/** The newest files as cards with their previews (thumbnails: no view counted); a click opens one. */
export function RecentFiles({
  files,
  onOpen,
}: {
  files: FileResource[];
  onOpen: (file: FileResource) => void;
}) {
  if (files.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        Nothing uploaded yet: drop a file above.
      </Text>
    );
  }
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} role="list" aria-label="Recent files">
      {files.map((file) => (
        <Card key={file.id} withBorder padding="sm" radius="md" role="listitem">
          <Card.Section>
            <FilePreview file={file} height={120} />
          </Card.Section>
          <UnstyledButton mt="xs" display="block" w="100%" ta="left" onClick={() => onOpen(file)}>
            <Text size="sm" fw={500} truncate>
              {file.originalName}
            </Text>
          </UnstyledButton>
          <Text size="xs" c="dimmed">
            {formatBytes(file.size)} · {formatDate(file.createdAt)}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}
