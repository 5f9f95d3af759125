import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Logo } from './Logo.tsx';
import { ThemeToggle } from './ThemeToggle.tsx';

/** The frame of the signed-out pages (login, first run). */
export function AuthCard({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  return (
    <Center mih="100vh" p="md" component="main">
      <Stack w="100%" maw={420} gap="lg">
        <Center style={{ justifyContent: 'space-between' }}>
          <Logo />
          <ThemeToggle />
        </Center>
        <Paper withBorder shadow="sm" p="xl" radius="lg">
          <Title order={1} size="h2" mb={4}>
            {title}
          </Title>
          <Text c="dimmed" size="sm" mb="lg">
            {intro}
          </Text>
          {children}
        </Paper>
      </Stack>
    </Center>
  );
}
