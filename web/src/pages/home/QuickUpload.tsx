import { ActionIcon, CopyButton, Group, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { absoluteUrl } from '../../api/format.ts';
import { type UploadOptions, uploadFile } from '../../api/upload.ts';
import { FileDropArea } from '../../components/FileDropArea.tsx';

/** The home page's upload: the defaults (no expiry, random names); options live on the Upload page. */
const DEFAULTS: UploadOptions = { expiresIn: '', maxViews: null, format: 'random', keepOriginalName: false };

type State = { name: string; progress: number; url?: string; error?: string };

export function QuickUpload() {
  const queryClient = useQueryClient();
  const [uploads, setUploads] = useState<State[]>([]);
  const start = async (files: File[]) => {
    setUploads(files.map((file) => ({ name: file.name, progress: 0 })));
    const change = (index: number, update: Partial<State>) =>
      setUploads((current) => current.map((item, at) => (at === index ? { ...item, ...update } : item)));
    await Promise.all(
      files.map(async (file, index) => {
        try {
          const done = await uploadFile(file, DEFAULTS, (progress) => change(index, { progress }));
          change(index, { progress: 1, url: absoluteUrl(done.url) });
        } catch (error) {
          change(index, { error: errorMessage(error) });
        }
      }),
    );
    await queryClient.invalidateQueries({ queryKey: ['files'] });
  };
  return (
    <Stack gap="xs">
      <FileDropArea onDrop={start} label="Quick upload: drop files here or press Enter to choose">
        <Group justify="center" gap="md" mih={72} style={{ pointerEvents: 'none' }}>
          <IconUpload size={28} stroke={1.4} aria-hidden />
          <Text fw={500}>Quick upload: drop files or click</Text>
        </Group>
      </FileDropArea>
      {uploads.map((item) => (
        <Stack key={item.name} gap={4}>
          <Progress value={item.progress * 100} aria-label={`Upload of ${item.name}`} />
          {item.error && (
            <Text size="sm" c="red" role="alert">
              {item.name}: {item.error}
            </Text>
          )}
          {item.url && (
            <Group gap="xs" wrap="nowrap">
              <Text size="sm" truncate style={{ userSelect: 'all' }}>
                {item.url}
              </Text>
              <CopyButton value={item.url}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? 'Copied' : 'Copy link'}>
                    <ActionIcon variant="subtle" onClick={copy} aria-label={`Copy link to ${item.name}`}>
                      {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            </Group>
          )}
        </Stack>
      ))}
    </Stack>
  );
}
