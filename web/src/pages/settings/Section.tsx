import { Paper, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function Section({
  title,
  intro,
  children,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-label={title}>
      <Title order={2} size="h4" mb={intro ? 4 : 'md'}>
        {title}
      </Title>
      {intro && (
        <Text size="sm" c="dimmed" mb="md">
          {intro}
        </Text>
      )}
      {children}
    </Paper>
  );
}
