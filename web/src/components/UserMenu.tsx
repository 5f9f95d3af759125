import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconChevronDown, IconKey, IconLogout, IconSettings } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { logout, useAvatar } from '../api/session.ts';
import type { UserResource } from '../api/types.ts';

/** "Copy token" copies at once (the token came with the user): no dialog in between. */
async function copyToken(token: string) {
  try {
    await navigator.clipboard.writeText(token);
    notifications.show({
      color: 'teal',
      message: 'API token copied. Keep it secret: it uploads and manages files as you.',
    });
  } catch {
    notifications.show({ color: 'red', message: 'The clipboard is not available here' });
  }
}

export function UserMenu({ user, token }: { user: UserResource; token: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const avatar = useAvatar(user);
  return (
    <Menu position="bottom-end" width={200} withArrow>
      <Menu.Target>
        <UnstyledButton aria-label={`User menu for ${user.username}`}>
          <Group gap={8} wrap="nowrap">
            {/* No initials: the button's name must contain all of its visible text. */}
            <Avatar src={avatar.data ?? null} alt="" radius="xl" size={32} color="blue" aria-hidden />
            <Text size="sm" fw={500} visibleFrom="xs" maw={140} truncate>
              {user.username}
            </Text>
            <IconChevronDown size={14} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user.role}</Menu.Label>
        <Menu.Item leftSection={<IconKey size={16} />} onClick={() => copyToken(token)}>
          Copy token
        </Menu.Item>
        <Menu.Item leftSection={<IconSettings size={16} />} onClick={() => navigate('/settings')}>
          Settings
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item
          color="red"
          leftSection={<IconLogout size={16} />}
          onClick={async () => {
            await logout();
            // Leave the signed-in pages before dropping their data, or they would refetch it (401).
            await navigate('/login', { replace: true });
            queryClient.clear();
          }}
        >
          Log out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
