import { Button, CopyButton, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client.ts';

export const tokenQuery = {
  queryKey: ['token'],
  queryFn: async () => (await api<{ token: string }>('/api/user/token')).token,
};

function TokenPanel() {
  const { data: token, error } = useQuery(tokenQuery);
  if (error) return <Text c="red">{error.message}</Text>;
  return (
    <Stack>
      <Text size="sm">
        Uploaders and scripts send this token in the <code>Authorization</code> header. Anyone who has it can
        upload and manage files as you: keep it secret, and reset it in Settings if it leaks.
      </Text>
      <PasswordInput label="API token" value={token ?? ''} readOnly />
      <Group justify="flex-end">
        <CopyButton value={token ?? ''}>
          {({ copied, copy }) => (
            <Button onClick={copy} disabled={!token}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

/** The user menu's "Copy token": the token with a word on what it is for. */
export const openTokenModal = () => modals.open({ title: 'Your API token', children: <TokenPanel /> });
