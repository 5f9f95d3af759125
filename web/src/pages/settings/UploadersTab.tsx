import { Button, CopyButton, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { tokenQuery, useTokenReset } from '../../api/account.ts';
import { errorMessage } from '../../api/client.ts';
import { confirmDestructive } from '../../components/confirm.tsx';
import { Section } from './Section.tsx';
import { sharexConfig, sharexShortenerConfig, uploadScript } from './uploaders.ts';

function download(fileName: string, content: string, type: string) {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(url);
}

/** The ready-made configurations offered for download, named after this service's host. */
function uploaderFiles(origin: string, token: string) {
  const host = window.location.host.replace(':', '-');
  return [
    {
      label: 'ShareX (.sxcu)',
      name: `${host}.sxcu`,
      content: sharexConfig(origin, token),
      type: 'application/json',
    },
    {
      label: 'ShareX URL shortener (.sxcu)',
      name: `${host}-links.sxcu`,
      content: sharexShortenerConfig(origin, token),
      type: 'application/json',
    },
    {
      label: 'Flameshot / curl script',
      name: 'upload.sh',
      content: uploadScript(origin, token),
      type: 'text/x-shellscript',
    },
  ];
}

export function UploadersTab() {
  const token = useQuery(tokenQuery);
  const reset = useTokenReset();
  const origin = window.location.origin;
  const value = token.data ?? '';

  const confirmReset = () =>
    confirmDestructive({
      title: 'Reset your API token?',
      message:
        'The current token stops working at once: every uploader and script that uses it needs the new one.',
      confirm: 'Reset token',
      onConfirm: () =>
        reset.mutate(undefined, {
          onSuccess: () => notifications.show({ color: 'teal', message: 'A new token is in place' }),
          onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
        }),
    });

  return (
    <Stack maw={760}>
      <Section
        title="API token"
        intro="Uploaders and scripts send it in the Authorization header. It never expires; reset it if it leaks."
      >
        <Stack>
          <PasswordInput label="Token" value={value} readOnly />
          <Group>
            <CopyButton value={value}>
              {({ copied, copy }) => (
                <Button onClick={copy} disabled={!value}>
                  {copied ? 'Copied' : 'Copy token'}
                </Button>
              )}
            </CopyButton>
            <Button variant="default" color="red" onClick={confirmReset} loading={reset.isPending}>
              Reset token
            </Button>
          </Group>
        </Stack>
      </Section>
      <Section
        title="Uploaders"
        intro="Ready-made configurations with this service's address and your token. Keep them private: they contain the token."
      >
        <Group>
          {uploaderFiles(origin, value).map((file) => (
            <Button
              key={file.label}
              leftSection={<IconDownload size={16} />}
              variant="default"
              disabled={!value}
              onClick={() => download(file.name, file.content, file.type)}
            >
              {file.label}
            </Button>
          ))}
        </Group>
        <Text size="sm" c="dimmed" mt="sm">
          {`ShareX sends each file in one request, which takes at most 4\u00a0MiB (AWS Lambda's request limit): larger screen recordings fail there with a message that says so. The script sends larger files, up to 5\u00a0GiB, straight to storage, as this dashboard does.`}
        </Text>
      </Section>
    </Stack>
  );
}
