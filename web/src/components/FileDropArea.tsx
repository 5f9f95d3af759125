import { Paper } from '@mantine/core';
import type { ReactNode } from 'react';
import { useDropzone } from 'react-dropzone';

/**
 * Where files are dropped or, on a click or Enter, chosen: react-dropzone's own area, which
 * `@mantine/dropzone` only wrapped (that wrapper's releases for this Mantine declare Node 22 to
 * install, for a browser component).
 */
export function FileDropArea(props: { onDrop: (files: File[]) => void; label: string; children: ReactNode }) {
  const { getRootProps, getInputProps, isDragActive } = useDropzone({ onDrop: props.onDrop, multiple: true });
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      {...getRootProps({ 'aria-label': props.label })}
      bg={isDragActive ? 'var(--mantine-color-default-hover)' : undefined}
      style={{ borderStyle: 'dashed', cursor: 'pointer' }}
    >
      <input {...getInputProps()} />
      {props.children}
    </Paper>
  );
}
