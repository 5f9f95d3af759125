import { Alert, Badge, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconDeviceDesktop, IconDeviceMobile } from '@tabler/icons-react';
import { errorMessage } from '../../api/client.ts';
import { formatDate } from '../../api/format.ts';
import { type SessionResource, useEndSessions, useSessions } from '../../api/home.ts';
import { confirmDestructive } from '../../components/confirm.tsx';
import { Section } from './Section.tsx';

function SessionRow({ session, current }: { session: SessionResource; current: boolean }) {
  const end = useEndSessions();
  const Icon = /mobile|tablet/.test(session.device) ? IconDeviceMobile : IconDeviceDesktop;
  return (
    <Group
      justify="space-between"
      wrap="wrap"
      role="listitem"
      aria-label={`${session.client} on ${session.device}`}
    >
      <Group gap="sm" wrap="nowrap">
        <Icon size={28} stroke={1.5} aria-hidden />
        <div>
          <Group gap="xs">
            <Text fw={500}>{session.client}</Text>
            {current && (
              <Badge color="teal.9" size="sm">
                This device
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {session.device} · signed in {formatDate(session.createdAt)}
          </Text>
        </div>
      </Group>
      {!current && (
        <Button
          variant="default"
          color="red"
          loading={end.isPending}
          aria-label={`Sign out ${session.client} on ${session.device}`}
          onClick={() => end.mutate({ sessionId: session.id })}
        >
          Sign out
        </Button>
      )}
    </Group>
  );
}

/** Where the account is signed in: this session marked, each other one ended here, or all at once. */
export function SessionsSection() {
  const { data, error } = useSessions();
  const endAll = useEndSessions();
  const failure = error ?? endAll.error;
  return (
    <Section title="Sessions" intro="Where you are signed in. Signing one out ends it at once.">
      {failure && (
        <Alert color="red" role="alert" mb="sm">
          {errorMessage(failure)}
        </Alert>
      )}
      {!data ? (
        !error && <Loader role="status" aria-label="Loading sessions" />
      ) : (
        <Stack gap="md">
          <Stack gap="sm" role="list" aria-label="Sessions">
            {data.current && <SessionRow session={data.current} current />}
            {data.other.map((session) => (
              <SessionRow key={session.id} session={session} current={false} />
            ))}
          </Stack>
          {data.other.length > 0 && (
            <Group>
              <Button
                color="red"
                variant="light"
                loading={endAll.isPending}
                onClick={() =>
                  confirmDestructive({
                    title: 'Sign out everywhere else?',
                    message: `The ${data.other.length} other session${data.other.length === 1 ? '' : 's'} end at once; this one stays.`,
                    confirm: 'Sign out other sessions',
                    onConfirm: () => endAll.mutate({ all: true }),
                  })
                }
              >
                Sign out all other sessions
              </Button>
            </Group>
          )}
        </Stack>
      )}
    </Section>
  );
}
