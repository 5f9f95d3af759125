import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconFile } from '@tabler/icons-react';
import { useSiteTitle } from '../api/server.ts';

export function Logo() {
  const title = useSiteTitle();
  return (
    <Group gap={8} wrap="nowrap">
      <ThemeIcon size={30} radius="md" variant="filled" aria-hidden>
        <IconFile size={18} />
      </ThemeIcon>
      <Text fw={700} size="lg" truncate maw={240}>
        {title}
      </Text>
    </Group>
  );
}
