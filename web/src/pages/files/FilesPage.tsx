import { Title } from '@mantine/core';

export default function FilesPage() {
  return <Title order={1}>Files</Title>;
}
