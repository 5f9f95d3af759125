import {
  ActionIcon,
  Button,
  CopyButton,
  Group,
  Paper,
  Progress,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCopy, IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { errorMessage } from '../api/client.ts';
import { absoluteUrl, formatBytes } from '../api/format.ts';
import { DIRECT_UPLOAD_LIMIT, uploadFile } from '../api/upload.ts';
import { FileDropArea } from '../components/FileDropArea.tsx';
import { useUploadOptions } from './UploadOptions.tsx';

interface Item {
  key: string;
  file: File;
  progress: number;
  state: 'waiting' | 'uploading' | 'done' | 'failed';
  url?: string;
  error?: string;
}

/** Files uploading at the same time; the rest wait their turn. */
const PARALLEL = 3;

export default function UploadPage() {
  const queryClient = useQueryClient();
  const [items, setItems] = useState<Item[]>([]);
  const { panel, resolve } = useUploadOptions();
  const counter = useRef(0);

  const change = (key: string, update: Partial<Item>) =>
    setItems((current) => current.map((item) => (item.key === key ? { ...item, ...update } : item)));

  const start = async (files: File[]) => {
    const options = resolve();
    if (!options) {
      notifications.show({ color: 'red', message: 'Nothing was uploaded: check the upload options' });
      return;
    }
    const added = files.map((file, index) => ({
      key: `${counter.current + index}`,
      file,
      progress: 0,
      state: 'waiting' as const,
    }));
    counter.current += files.length;
    setItems((current) => [...added, ...current]);
    const queue = [...added];
    const worker = async () => {
      for (let item = queue.shift(); item; item = queue.shift()) {
        const { key, file } = item;
        change(key, { state: 'uploading' });
        try {
          const uploaded = await uploadFile(file, options, (progress) => change(key, { progress }));
          change(key, { state: 'done', progress: 1, url: absoluteUrl(uploaded.url) });
        } catch (error) {
          change(key, { state: 'failed', error: errorMessage(error) });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, added.length) }, worker));
    await queryClient.invalidateQueries({ queryKey: ['files'] });
  };

  return (
    <Stack gap="md" maw={960}>
      <Title order={1}>Upload</Title>
      {panel}

      <FileDropArea onDrop={start} label="Drop files here or press Enter to choose files">
        <Group justify="center" gap="lg" mih={160} style={{ pointerEvents: 'none' }}>
          <IconUpload size={44} stroke={1.4} aria-hidden />
          <div>
            <Text size="lg" fw={500}>
              Drag files here or click to choose
            </Text>
            <Text size="sm" c="dimmed">
              As many as you like. Files over {formatBytes(DIRECT_UPLOAD_LIMIT)} go straight to storage.
            </Text>
          </div>
        </Group>
      </FileDropArea>

      {items.length > 0 && (
        <Stack gap="xs" role="list" aria-label="Uploads">
          {items.map((item) => (
            <Paper key={item.key} withBorder p="sm" role="listitem">
              <Group justify="space-between" wrap="nowrap" mb={6}>
                <Text size="sm" fw={500} truncate>
                  {item.file.name}
                </Text>
                <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {formatBytes(item.file.size)}
                </Text>
              </Group>
              <Progress
                value={item.progress * 100}
                color={item.state === 'failed' ? 'red' : item.state === 'done' ? 'teal' : undefined}
                aria-label={`Upload of ${item.file.name}`}
                animated={item.state === 'uploading'}
              />
              {item.state === 'failed' && (
                <Text size="sm" c="red" mt={6} role="alert">
                  {item.error}
                </Text>
              )}
              {item.url && (
                <Group gap="xs" mt={6} wrap="nowrap">
                  <IconCheck size={16} color="var(--mantine-color-teal-7)" aria-label="Uploaded" />
                  {/* Shown, not linked: following the public link would count a view. */}
                  <Text size="sm" truncate style={{ userSelect: 'all' }}>
                    {item.url}
                  </Text>
                  <CopyButton value={item.url}>
                    {({ copied, copy }) => (
                      <Tooltip label={copied ? 'Copied' : 'Copy link'}>
                        <ActionIcon
                          variant="subtle"
                          onClick={copy}
                          aria-label={`Copy link to ${item.file.name}`}
                        >
                          {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </CopyButton>
                </Group>
              )}
            </Paper>
          ))}
          <Group>
            <Button
              variant="default"
              onClick={() => setItems((current) => current.filter((item) => item.state !== 'done'))}
            >
              Clear finished
            </Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}
