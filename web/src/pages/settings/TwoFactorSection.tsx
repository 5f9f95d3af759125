import {
  Alert,
  Badge,
  Box,
  Button,
  Code,
  CopyButton,
  Group,
  Image,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { useTotp, useTotpDisable, useTotpEnable } from '../../api/mfa.ts';
import { describeError } from '../../api/session.ts';
import { Section } from './Section.tsx';

/** Six digits as authenticator apps show them (`123 456`): spaces are fine, the API drops them. */
const CodeInput = ({
  label,
  value,
  onChange,
  numeric = true,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  numeric?: boolean;
}) => (
  <TextInput
    label={label}
    autoComplete="one-time-code"
    inputMode={numeric ? 'numeric' : 'text'}
    required
    maxLength={32}
    value={value}
    onChange={(event) => onChange(event.currentTarget.value)}
    style={{ flex: '1 1 200px' }}
  />
);

/** The recovery codes, shown once right after enrolment: copy them all, or download them. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `${codes.join('\n')}\n`;
  const download = `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;
  return (
    <Stack>
      {/* Blue: its title keeps 4.5:1 contrast on the tinted background (yellow cannot). */}
      <Alert color="blue" title="Save your recovery codes now" role="status">
        Each code signs you in once in place of a code from the app, if you lose your phone. They are shown
        only this once: keep them somewhere safe (a password manager, a printout).
      </Alert>
      <Box
        component="ul"
        aria-label="Recovery codes"
        p={0}
        m={0}
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fill, minmax(12rem, 1fr))',
          gap: 'var(--mantine-spacing-xs)',
          listStyle: 'none',
        }}
      >
        {codes.map((code) => (
          <li key={code}>
            <Code fz="md">{code}</Code>
          </li>
        ))}
      </Box>
      <Group>
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy}>
              {copied ? 'Copied' : 'Copy codes'}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" component="a" href={download} download="recovery-codes.txt">
          Download
        </Button>
        <Button onClick={onDone}>I have saved them</Button>
      </Group>
    </Stack>
  );
}

/**
 * TOTP off: the QR code to scan (or the secret to type), then the app's code turns it on; Cancel
 * leaves it off (the offer's secret stays unused until an enrolment).
 */
function Enrol({
  secret,
  qrcode,
  onEnabled,
  onCancel,
}: {
  secret: string;
  qrcode: string;
  onEnabled: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const enable = useTotpEnable();
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    enable.mutate({ secret, code }, { onSuccess: (answer) => onEnabled(answer.recoveryCodes) });
  };
  return (
    <form onSubmit={submit}>
      <Stack>
        <Group align="flex-start" wrap="wrap" gap="lg">
          <Image
            src={qrcode}
            alt="QR code to scan with your authenticator app"
            w={180}
            h={180}
            radius="sm"
            bg="white"
          />
          <Stack gap="xs" style={{ flex: '1 1 260px' }}>
            <Text size="sm">
              1. Scan the QR code with an authenticator app (Google Authenticator, Aegis, 1Password, Authy…),
              or type this key into it:
            </Text>
            <Group gap="xs">
              <Code fz="sm" style={{ wordBreak: 'break-all' }} aria-label="Secret key">
                {secret.match(/.{1,4}/g)?.join(' ')}
              </Code>
              <CopyButton value={secret}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="default" onClick={copy}>
                    {copied ? 'Copied' : 'Copy key'}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <Text size="sm">2. Enter the six-digit code the app shows.</Text>
            <Group align="flex-end" wrap="wrap">
              <CodeInput label="Code from the app" value={code} onChange={setCode} />
              <Button type="submit" loading={enable.isPending}>
                Turn on
              </Button>
              <Button variant="default" onClick={onCancel}>
                Cancel
              </Button>
            </Group>
            {enable.error && (
              <Text c="red" size="sm" role="alert">
                {describeError(enable.error)}
              </Text>
            )}
          </Stack>
        </Group>
      </Stack>
    </form>
  );
}

/** TOTP on: a current code, or a recovery code, turns it off. */
function Disable() {
  const disable = useTotpDisable();
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    disable.mutate(code, {
      onSuccess: () => {
        setCode('');
        notifications.show({ color: 'teal', message: 'Two-factor authentication is off' });
      },
    });
  };
  return (
    <form onSubmit={submit}>
      <Stack gap="xs">
        <Text size="sm">To turn it off, enter a code from the app or one of your recovery codes.</Text>
        <Group align="flex-end" wrap="wrap">
          <CodeInput label="Code or recovery code" value={code} onChange={setCode} numeric={false} />
          <Button type="submit" color="red" variant="light" loading={disable.isPending}>
            Turn off
          </Button>
        </Group>
        {disable.error && (
          <Text c="red" size="sm" role="alert">
            {describeError(disable.error)}
          </Text>
        )}
      </Stack>
    </form>
  );
}

export function TwoFactorSection() {
  const totp = useTotp();
  // Shown once, right after enrolment; kept here so a refetch of the user does not hide them.
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [enrolling, setEnrolling] = useState(false);
  const enabled = totp.data !== undefined && 'enabled' in totp.data;
  return (
    <Section
      title="Two-factor authentication"
      intro="Signing in with your password or a sign-in provider also asks for a code from an authenticator app on your phone. API tokens (uploaders) keep working, but cannot change how you sign in."
    >
      <Stack>
        <Group gap="xs">
          <Text size="sm" fw={500}>
            Status
          </Text>
          {totp.data && (
            // Filled dark teal and light gray: both keep 4.5:1 contrast (light teal does not).
            <Badge color={enabled ? 'teal.9' : 'gray'} variant={enabled ? 'filled' : 'light'}>
              {enabled ? 'On' : 'Off'}
            </Badge>
          )}
        </Group>
        {totp.error && (
          <Text c="red" size="sm" role="alert">
            {describeError(totp.error)}
          </Text>
        )}
        {recoveryCodes ? (
          <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />
        ) : enabled ? (
          <Disable />
        ) : totp.data && 'secret' in totp.data ? (
          enrolling ? (
            <Enrol
              secret={totp.data.secret}
              qrcode={totp.data.qrcode}
              onEnabled={(codes) => {
                setEnrolling(false);
                setRecoveryCodes(codes);
              }}
              onCancel={() => setEnrolling(false)}
            />
          ) : (
            <Group>
              <Button onClick={() => setEnrolling(true)}>Set up an authenticator app</Button>
            </Group>
          )
        ) : null}
      </Stack>
    </Section>
  );
}
