import { Title } from '@mantine/core';

export default function UsersPage() {
  return <Title order={1}>Users</Title>;
}
