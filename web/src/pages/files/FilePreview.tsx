import { Center, Image, Text, ThemeIcon } from '@mantine/core';
import { IconFile, IconFileMusic, IconFileText, IconMovie } from '@tabler/icons-react';
import { ownerRawUrl } from '../../api/format.ts';
import type { FileResource } from '../../api/types.ts';

const iconFor = (type: string) =>
  type.startsWith('video/')
    ? IconMovie
    : type.startsWith('audio/')
      ? IconFileMusic
      : type.startsWith('text/')
        ? IconFileText
        : IconFile;

/**
 * Images show their thumbnail (a few KB of WebP), or while none exists the image itself (both through
 * the owner's routes: no view counted); videos their thumbnail (a frame of the first second) once
 * made; other types an icon.
 */
export function FilePreview({ file, height }: { file: FileResource; height: number }) {
  const image = file.type.startsWith('image/') && file.type !== 'image/svg+xml';
  if (image || (file.type.startsWith('video/') && file.thumbnail)) {
    return (
      <Image
        src={file.thumbnail?.path ?? ownerRawUrl(file.id)}
        alt=""
        h={height}
        fit="cover"
        loading="lazy"
      />
    );
  }
  const Icon = iconFor(file.type);
  const extension = file.name.includes('.') ? file.name.split('.').pop()?.toUpperCase() : undefined;
  return (
    <Center h={height} bg="var(--mantine-color-default-hover)" style={{ flexDirection: 'column', gap: 6 }}>
      <ThemeIcon size={48} radius="md" variant="light" aria-hidden>
        <Icon size={28} />
      </ThemeIcon>
      {extension && (
        <Text size="xs" fw={600} c="dimmed">
          {extension}
        </Text>
      )}
    </Center>
  );
}
