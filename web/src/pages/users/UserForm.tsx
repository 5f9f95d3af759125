import {
  Alert,
  Button,
  Checkbox,
  Group,
  NumberInput,
  PasswordInput,
  Select,
  Stack,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, errorMessage } from '../../api/client.ts';
import type { Quota, Role, UserResource } from '../../api/types.ts';

export interface UserChange {
  username?: string;
  password?: string;
  role?: Role;
  quota?: Quota | null;
  /** `null` turns the user's two-factor authentication off. */
  totpSecret?: null;
}

/**
 * Whether the user has TOTP on: the listing cannot tell (its index holds no TOTP state), the user
 * itself can (`GET /api/users/{id}` shows the `totpSecret` marker).
 */
function useTotpOn(user: UserResource | undefined) {
  const { data } = useQuery({
    queryKey: ['users', 'one', user?.id],
    queryFn: () => api<UserResource>(`/api/users/${encodeURIComponent(user?.id ?? '')}`),
    enabled: user !== undefined,
  });
  return data?.totpSecret != null;
}

interface Props {
  user?: UserResource;
  roles: Role[];
  pending: boolean;
  error: Error | null;
  onSubmit: (change: UserChange) => void;
  onCancel: () => void;
}

/** Create (no `user`) or edit a user: username, password, role, quota. */
export function UserForm({ user, roles, pending, error, onSubmit, onCancel }: Props) {
  const [username, setUsername] = useState(user?.username ?? '');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>(user?.role ?? 'USER');
  const [quotaKind, setQuotaKind] = useState<string>(user?.quota?.filesQuota ?? 'NONE');
  const [maxBytes, setMaxBytes] = useState(user?.quota?.maxBytes ?? '');
  const [maxFiles, setMaxFiles] = useState<string | number>(user?.quota?.maxFiles ?? '');
  // Short links (issue 34): kept beside a files limit, as the API keeps it.
  const [maxUrls, setMaxUrls] = useState<string | number>(user?.quota?.maxUrls ?? '');
  const totpOn = useTotpOn(user);
  const [turnOffTotp, setTurnOffTotp] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const urls = maxUrls === '' ? {} : { maxUrls: Number(maxUrls) };
    const quota: Quota | null =
      quotaKind === 'BY_BYTES'
        ? { filesQuota: 'BY_BYTES', maxBytes: maxBytes.trim() || null, maxFiles: null, ...urls }
        : quotaKind === 'BY_FILES'
          ? {
              filesQuota: 'BY_FILES',
              maxBytes: null,
              maxFiles: maxFiles === '' ? null : Number(maxFiles),
              ...urls,
            }
          : null;
    const change: UserChange = {};
    if (!user || username.trim() !== user.username) change.username = username.trim();
    if (password) change.password = password;
    if (!user || role !== user.role) change.role = role;
    if (JSON.stringify(quota) !== JSON.stringify(user?.quota ?? null)) change.quota = quota;
    if (totpOn && turnOffTotp) change.totpSecret = null;
    onSubmit(change);
  };

  return (
    <form onSubmit={submit}>
      <Stack>
        {error && (
          <Alert color="red" role="alert">
            {errorMessage(error)}
          </Alert>
        )}
        <TextInput
          label="Username"
          required
          maxLength={64}
          value={username}
          onChange={(e) => setUsername(e.currentTarget.value)}
        />
        <PasswordInput
          label={user ? 'New password' : 'Password'}
          description={
            user ? 'Leave empty to keep it. A new one signs the user out everywhere.' : '8 to 72 characters'
          }
          autoComplete="new-password"
          required={!user}
          minLength={8}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
        />
        <Select
          label="Role"
          data={roles}
          value={role}
          allowDeselect={false}
          onChange={(value) => value && setRole(value as Role)}
        />
        <Select
          label="Quota"
          data={[
            { value: 'NONE', label: 'No quota' },
            { value: 'BY_BYTES', label: 'Limit by size' },
            { value: 'BY_FILES', label: 'Limit by number of files' },
          ]}
          value={quotaKind}
          allowDeselect={false}
          onChange={(value) => setQuotaKind(value ?? 'NONE')}
        />
        {quotaKind === 'BY_BYTES' && (
          <TextInput
            label="Maximum size"
            description="For example 500mb or 2 GB"
            required
            value={maxBytes}
            onChange={(e) => setMaxBytes(e.currentTarget.value)}
          />
        )}
        {quotaKind === 'BY_FILES' && (
          <NumberInput
            label="Maximum files"
            min={0}
            allowDecimal={false}
            required
            value={maxFiles}
            onChange={setMaxFiles}
          />
        )}
        {quotaKind !== 'NONE' && (
          <NumberInput
            label="Maximum short links"
            description="Empty: no limit"
            min={1}
            allowDecimal={false}
            value={maxUrls}
            onChange={setMaxUrls}
          />
        )}
        {totpOn && (
          <Checkbox
            label="Turn off two-factor authentication"
            description="For a user who lost both the authenticator app and the recovery codes; the password alone then signs in."
            checked={turnOffTotp}
            onChange={(event) => setTurnOffTotp(event.currentTarget.checked)}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={pending}>
            {user ? 'Save' : 'Create user'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
