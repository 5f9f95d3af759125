import { Card, Checkbox, Group, SimpleGrid, Text, Tooltip } from '@mantine/core';
import { formatBytes, formatDate, formatDay } from '../../api/format.ts';
import type { FileResource } from '../../api/types.ts';
import { FavoriteButton, FileActions } from './FileActions.tsx';
import { FilePreview } from './FilePreview.tsx';

interface Props {
  files: FileResource[];
  selected: Set<string>;
  onToggle: (id: string) => void;
}

export function FileGrid({ files, selected, onToggle }: Props) {
  return (
    <SimpleGrid cols={{ base: 2, xs: 2, sm: 3, md: 4, xl: 5 }} spacing="md" role="list" aria-label="Files">
      {files.map((file) => (
        <Card key={file.id} withBorder padding="sm" radius="md" role="listitem">
          <Card.Section pos="relative">
            <FilePreview file={file} height={150} />
            <Checkbox
              pos="absolute"
              top={8}
              left={8}
              aria-label={`Select ${file.originalName}`}
              checked={selected.has(file.id)}
              onChange={() => onToggle(file.id)}
            />
          </Card.Section>
          <Tooltip label={file.originalName} openDelay={500}>
            <Text fw={500} size="sm" mt="xs" truncate>
              {file.originalName}
            </Text>
          </Tooltip>
          <Group justify="space-between" wrap="nowrap" gap={4}>
            <Text size="xs" c="dimmed" truncate title={`Uploaded ${formatDate(file.createdAt)}`}>
              {formatBytes(file.size)} · {formatDay(file.createdAt)}
            </Text>
            <Group gap={0} wrap="nowrap">
              <FavoriteButton file={file} />
              <FileActions file={file} />
            </Group>
          </Group>
        </Card>
      ))}
    </SimpleGrid>
  );
}
