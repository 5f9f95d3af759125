import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { useSignInProviders, useStartLink, useUnlinkProvider } from '../../api/oauth.ts';
import type { UserResource } from '../../api/types.ts';
import { confirmDestructive } from '../../components/confirm.tsx';
import { ProviderIcon } from '../../components/ProviderIcon.tsx';
import { Section } from './Section.tsx';

const linkedOn = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

/**
 * Sign-in providers: link each one the deployment offers (a POST answers the provider's page, the
 * browser goes there and comes back here with `linked=<id>` or `error=...`), unlink a linked one. Linked providers the deployment
 * no longer offers are listed too, so they can be unlinked.
 */
export function ProvidersSection({ user }: { user: UserResource }) {
  const providers = useSignInProviders();
  const unlink = useUnlinkProvider();
  const link = useStartLink();
  const [params] = useSearchParams();
  const offered = providers.data ?? [];
  const linkedOnly = user.oauthProviders.filter((link) => !offered.some((p) => p.id === link.provider));
  const rows = [
    ...offered.map((provider) => ({ id: provider.id, name: provider.name })),
    ...linkedOnly.map((link) => ({ id: link.provider, name: link.provider })),
  ];
  if (rows.length === 0) return null;
  const justLinked = rows.find((row) => row.id === params.get('linked'));
  const error = params.get('error');
  return (
    <Section
      title="Sign-in providers"
      intro="Sign in with an account you have elsewhere. Unlinking keeps at least one way to sign in: a password, another provider or a passkey."
    >
      <Stack>
        {justLinked && (
          <Alert color="teal" role="status">
            {justLinked.name} is linked: you can sign in with it now.
          </Alert>
        )}
        {error && (
          <Alert color="red" title="Linking failed" role="alert">
            {error}
          </Alert>
        )}
        {unlink.error && (
          <Alert color="red" role="alert">
            {errorMessage(unlink.error)}
          </Alert>
        )}
        {link.error && (
          <Alert color="red" title="Linking failed" role="alert">
            {errorMessage(link.error)}
          </Alert>
        )}
        {rows.map((row) => {
          const linked = user.oauthProviders.find((candidate) => candidate.provider === row.id);
          return (
            <Group key={row.id} justify="space-between" wrap="wrap">
              <Group gap="sm">
                <ProviderIcon id={row.id} size={22} />
                <div>
                  <Text fw={500}>{row.name}</Text>
                  <Text size="sm" c="dimmed">
                    {linked
                      ? `Linked as ${linked.username} since ${linkedOn(linked.createdAt)}`
                      : 'Not linked'}
                  </Text>
                </div>
              </Group>
              {linked ? (
                <Button
                  variant="default"
                  color="red"
                  loading={unlink.isPending && unlink.variables === row.id}
                  onClick={() =>
                    confirmDestructive({
                      title: `Unlink ${row.name}?`,
                      message: `You will no longer sign in with ${row.name} as ${linked.username}. You can link it again later.`,
                      confirm: 'Unlink',
                      onConfirm: () => unlink.mutate(row.id),
                    })
                  }
                  aria-label={`Unlink ${row.name}`}
                >
                  Unlink
                </Button>
              ) : (
                // A POST from this page, so another site cannot start a link in this browser.
                <Button
                  loading={(link.isPending || link.isSuccess) && link.variables === row.id}
                  onClick={() => link.mutate(row.id)}
                  aria-label={`Link ${row.name}`}
                >
                  Link
                </Button>
              )}
            </Group>
          );
        })}
      </Stack>
    </Section>
  );
}
