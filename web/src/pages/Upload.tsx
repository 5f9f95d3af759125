import { Title } from '@mantine/core';

export default function UploadPage() {
  return <Title order={1}>Upload</Title>;
}
