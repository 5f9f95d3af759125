import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconFileOff, IconUpload } from '@tabler/icons-react';
import { Link } from 'react-router';

export function EmptyState({ filtered }: { filtered: boolean }) {
  return (
    <Paper withBorder p="xl" radius="lg">
      <Stack align="center" gap="sm" py="lg">
        <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
          <IconFileOff size={30} />
        </ThemeIcon>
        <Title order={2} size="h3">
          {filtered ? 'No files match' : 'No files yet'}
        </Title>
        <Text c="dimmed" ta="center" maw={420}>
          {filtered
            ? 'Nothing matches this search or filter. Try another word or clear the filter.'
            : 'Upload files here, or point ShareX, Flameshot or any uploader at this service (Settings → Uploaders).'}
        </Text>
        {!filtered && (
          <Button component={Link} to="/upload" leftSection={<IconUpload size={16} />}>
            Upload files
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
