import { useQuery } from '@tanstack/react-query';
import { ApiError, api, request } from './client.ts';
import type { CurrentUser, UserResource } from './types.ts';

export const currentUserQuery = {
  queryKey: ['user'],
  queryFn: () => api<CurrentUser>('/api/user'),
  staleTime: 60_000,
};

export const useCurrentUser = () => useQuery(currentUserQuery);

/**
 * `GET /api/setup`: true only until the first account exists, so once false it stays false; with
 * `codeRequired` (in AWS) the first account needs the deployment's one-time setup code.
 */
export const setupQuery = {
  queryKey: ['setup'],
  queryFn: () => api<{ firstSetup: boolean; codeRequired?: boolean }>('/api/setup'),
  staleTime: Number.POSITIVE_INFINITY,
};

/**
 * Where the dashboard remembers that a user had no avatar. The API answers 404 then (the contract's
 * answer), which a browser logs as an error on every page that asks: remembered per user and
 * `updatedAt`, which every avatar change moves (it is written with the user update), so the question
 * is asked once per account version, not once per page.
 */
const NO_AVATAR_KEY = 'file-service:no-avatar';

const versionOf = (user: UserResource) => `${user.id}@${user.updatedAt}`;

function rememberedWithoutAvatar(user: UserResource): boolean {
  try {
    return localStorage.getItem(NO_AVATAR_KEY) === versionOf(user);
  } catch {
    return false;
  }
}

function rememberAvatarAbsence(user: UserResource, absent: boolean) {
  try {
    if (absent) localStorage.setItem(NO_AVATAR_KEY, versionOf(user));
    else localStorage.removeItem(NO_AVATAR_KEY);
  } catch {
    // Storage refused (private mode): the dashboard asks again next time.
  }
}

/** The avatar as a data URL, or null when none is set. */
export function useAvatar(user: UserResource) {
  return useQuery({
    queryKey: ['avatar', user.id, user.updatedAt],
    staleTime: 5 * 60_000,
    queryFn: async () => {
      if (rememberedWithoutAvatar(user)) return null;
      try {
        const text = await (await request('/api/user/avatar')).text();
        rememberAvatarAbsence(user, false);
        // JSON-encoded string, or the data URL as plain text.
        return text.startsWith('"') ? (JSON.parse(text) as string) : text;
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) throw error;
        rememberAvatarAbsence(user, true);
        return null;
      }
    },
  });
}

/** Only same-app paths are followed after login, never another origin (`//evil`, `https:`). */
export function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/login') ? next : '/home';
}

export function loginPath(location: { pathname: string; search: string }): string {
  const here = `${location.pathname}${location.search}`;
  return here === '/' || here.startsWith('/login') ? '/login' : `/login?next=${encodeURIComponent(here)}`;
}

/** Ends the session; a session that is already gone is as good as ended. */
export async function logout() {
  await request('/api/auth/logout', { method: 'POST' }).catch(() => undefined);
}

/** "Try again in 14 minutes (at 21:05)." for a 429, else the API's message. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError && error.status === 429) {
    const seconds = error.retryAfterSeconds ?? 60;
    const at = new Date(Date.now() + seconds * 1000).toLocaleTimeString(undefined, {
      hour: '2-digit',
      minute: '2-digit',
    });
    const wait = seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
    return `Too many attempts. Try again in ${wait} (at ${at}).`;
  }
  return error instanceof Error ? error.message : 'something went wrong';
}
