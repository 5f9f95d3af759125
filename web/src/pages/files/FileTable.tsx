import { Anchor, Box, Checkbox, Group, Table, Text, VisuallyHidden } from '@mantine/core';
import { formatBytes, formatDate } from '../../api/format.ts';
import type { FileResource } from '../../api/types.ts';
import { FavoriteButton, FileActions } from './FileActions.tsx';
import { FileBadges } from './FileBadges.tsx';

interface Props {
  files: FileResource[];
  selected: Set<string>;
  onToggle: (id: string) => void;
  onSelectAll: (ids: Set<string>) => void;
  /** Opens the file's detail view. */
  onOpen: (file: FileResource) => void;
}

export function FileTable({ files, selected, onToggle, onSelectAll, onOpen }: Props) {
  const all = files.every((file) => selected.has(file.id));
  const some = files.some((file) => selected.has(file.id));
  return (
    // Narrow screens get name, size and the actions; the other columns join from medium width.
    <Table.ScrollContainer minWidth={360}>
      <Table striped highlightOnHover verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>
              <Checkbox
                aria-label="Select all files on this page"
                checked={all}
                indeterminate={some && !all}
                onChange={() => onSelectAll(all ? new Set() : new Set(files.map((file) => file.id)))}
              />
            </Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th visibleFrom="md">Type</Table.Th>
            <Table.Th ta="right">Size</Table.Th>
            <Table.Th visibleFrom="md" ta="right">
              Views
            </Table.Th>
            <Table.Th visibleFrom="md">Uploaded</Table.Th>
            <Table.Th visibleFrom="md">Expires</Table.Th>
            <Table.Th w={80}>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {files.map((file) => (
            <Table.Tr key={file.id} aria-selected={selected.has(file.id)}>
              <Table.Td>
                <Checkbox
                  aria-label={`Select ${file.originalName}`}
                  checked={selected.has(file.id)}
                  onChange={() => onToggle(file.id)}
                />
              </Table.Td>
              <Table.Td>
                {/* A bounded box, so long names end in an ellipsis instead of pushing the actions out. */}
                <Box maw={{ base: 150, xs: 240, md: 320 }}>
                  <Anchor
                    component="button"
                    type="button"
                    aria-haspopup="dialog"
                    onClick={() => onOpen(file)}
                    size="sm"
                    fw={500}
                    display="block"
                    maw="100%"
                    ta="left"
                    truncate
                  >
                    {file.originalName}
                  </Anchor>
                  <Text size="xs" c="dimmed" truncate>
                    {file.name}
                  </Text>
                  <FileBadges file={file} />
                </Box>
              </Table.Td>
              <Table.Td visibleFrom="md">
                <Text size="sm">{file.type}</Text>
              </Table.Td>
              <Table.Td ta="right">
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {formatBytes(file.size)}
                </Text>
              </Table.Td>
              <Table.Td visibleFrom="md" ta="right">
                <Text size="sm">
                  {file.views}
                  {file.maxViews !== null && ` / ${file.maxViews}`}
                </Text>
              </Table.Td>
              <Table.Td visibleFrom="md">
                <Text size="sm">{formatDate(file.createdAt)}</Text>
              </Table.Td>
              <Table.Td visibleFrom="md">
                <Text size="sm">{file.deletesAt ? formatDate(file.deletesAt) : 'Never'}</Text>
              </Table.Td>
              <Table.Td>
                <Group gap={0} wrap="nowrap">
                  <FavoriteButton file={file} />
                  <FileActions file={file} />
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
