import { Card, Checkbox, Group, SimpleGrid, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { formatBytes, formatDate, formatDay } from '../../api/format.ts';
import type { FileResource } from '../../api/types.ts';
import { FavoriteButton, FileActions } from './FileActions.tsx';
import { FileBadges } from './FileBadges.tsx';
import { FilePreview } from './FilePreview.tsx';

interface Props {
  files: FileResource[];
  selected: Set<string>;
  onToggle: (id: string) => void;
  /** Opens the file's detail view. */
  onOpen: (file: FileResource) => void;
}

export function FileGrid({ files, selected, onToggle, onOpen }: Props) {
  return (
    <SimpleGrid cols={{ base: 2, xs: 2, sm: 3, md: 4, xl: 5 }} spacing="md" role="list" aria-label="Files">
      {files.map((file) => (
        <Card key={file.id} withBorder padding="sm" radius="md" role="listitem">
          <Card.Section pos="relative">
            {/* A second way to the detail view for the pointer; keyboards use the name below. */}
            <UnstyledButton display="block" w="100%" tabIndex={-1} aria-hidden onClick={() => onOpen(file)}>
              <FilePreview file={file} height={150} />
            </UnstyledButton>
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
            <UnstyledButton
              mt="xs"
              display="block"
              w="100%"
              ta="left"
              onClick={() => onOpen(file)}
              aria-haspopup="dialog"
            >
              <Text fw={500} size="sm" truncate>
                {file.originalName}
              </Text>
            </UnstyledButton>
          </Tooltip>
          <FileBadges file={file} />
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
