import { Alert, Box, Button, Image, Loader, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../api/client.ts';
import { formatBytes, ownerRawUrl } from '../../api/format.ts';
import type { FileResource } from '../../api/types.ts';
import { FilePreview } from './FilePreview.tsx';

/** Text larger than this is not loaded into the page (it is opened instead). */
export const TEXT_PREVIEW_LIMIT = 512 * 1024;
const TEXT_TYPE =
  /^text\/|^application\/(json|(x-)?javascript|xml|x-yaml|yaml|toml|x-sh|sql)\b|\+json$|\+xml$/i;
export const isTextType = (type: string) => TEXT_TYPE.test(type);

/** The file's own bytes through the owner's raw route (no view counted), read as UTF-8. */
function TextPreview({ file }: { file: FileResource }) {
  const text = useQuery({
    queryKey: ['file-text', file.id, file.updatedAt],
    queryFn: async () =>
      new TextDecoder('utf-8').decode(await (await request(ownerRawUrl(file.id))).arrayBuffer()),
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (text.isPending) return <Loader role="status" aria-label="Loading the text" />;
  if (text.error) return <Alert color="red">The text could not be loaded: {text.error.message}</Alert>;
  return (
    // Focusable, so a keyboard scrolls it too.
    <Box
      component="pre"
      tabIndex={0}
      aria-label={`Contents of ${file.originalName}`}
      m={0}
      p="sm"
      mah="60vh"
      bg="var(--mantine-color-default-hover)"
      style={{
        alignSelf: 'start',
        overflow: 'auto',
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-word',
        borderRadius: 'var(--mantine-radius-md)',
        fontSize: 'var(--mantine-font-size-sm)',
      }}
    >
      {text.data}
    </Box>
  );
}

/** The detail view's preview: the image, a player, the text, or the type's icon. */
export function FileDetailPreview({ file }: { file: FileResource }) {
  const src = ownerRawUrl(file.id);
  const label = `Preview of ${file.originalName}`;
  if (file.type.startsWith('image/')) {
    return <Image src={src} alt={label} fit="contain" mah="60vh" radius="md" />;
  }
  if (file.type.startsWith('video/')) {
    return (
      // biome-ignore lint/a11y/useMediaCaption: the user's own upload; there is no caption track to offer
      <video
        src={src}
        controls
        preload="metadata"
        aria-label={label}
        style={{ width: '100%', maxHeight: '60vh' }}
      />
    );
  }
  if (file.type.startsWith('audio/')) {
    // biome-ignore lint/a11y/useMediaCaption: the user's own upload; there is no caption track to offer
    return <audio src={src} controls preload="metadata" aria-label={label} style={{ width: '100%' }} />;
  }
  if (isTextType(file.type)) {
    if (file.size <= TEXT_PREVIEW_LIMIT) return <TextPreview file={file} />;
    return (
      <Alert color="gray" title="Too large to show here">
        <Text size="sm" mb="xs">
          This text is {formatBytes(file.size)}; the preview shows up to {formatBytes(TEXT_PREVIEW_LIMIT)}.
        </Text>
        <Button component="a" href={src} target="_blank" rel="noopener" size="xs" variant="default">
          Open it
        </Button>
      </Alert>
    );
  }
  return <FilePreview file={file} height={200} />;
}
