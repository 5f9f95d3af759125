import Bowser from 'bowser';
import { invalid, notFound } from '#shared/errors';
import type { UserRecord } from '#shared/users/model';
import { removeSessions } from '#shared/users/sign-in/sessions';
import { getUser } from '#shared/users/store';

/**
 * `GET/DELETE /api/user/sessions` (Zipline 4.4's shape): each signed-in session with when it began
 * and the client and device parsed from the `User-Agent` it signed in with. The id is the one the
 * User's `sessions` lists; it is a handle, not a credential: a cookie is the id sealed under the
 * service key with its issue time, so knowing an id signs nobody in (docs/security.md).
 */
export interface SessionResource {
  id: string;
  createdAt: string;
  ua: string;
  /** The browser or app and its version ("Firefox 133", "curl 8.5"), or "Unknown client". */
  client: string;
  /** The operating system and kind of device ("macOS 14 · desktop"), or "Unknown device". */
  device: string;
  userId: string;
}

export interface SessionList {
  /** The caller's own session; null when the caller came with the API token. */
  current: SessionResource | null;
  other: SessionResource[];
}

/** A client or device label from a parsed `User-Agent`: the words it has, or `fallback`. */
const label = (parts: (string | undefined)[], fallback: string) =>
  parts.filter((part) => part !== undefined && part !== '').join(' ') || fallback;

const UNKNOWN = { client: 'Unknown client', device: 'Unknown device' };

export function describeAgent(ua: string): Pick<SessionResource, 'client' | 'device'> {
  // Bowser refuses an empty User-Agent (a client that sent none, or a session from before they were kept).
  if (ua.trim() === '') return UNKNOWN;
  let parsed: Bowser.Parser.ParsedResult;
  try {
    parsed = Bowser.parse(ua);
  } catch {
    return UNKNOWN;
  }
  const version = parsed.browser.version?.split('.')[0];
  const os = label([parsed.os.name, parsed.os.versionName ?? parsed.os.version?.split('.')[0]], '');
  const kind = parsed.platform.type;
  return {
    client: label([parsed.browser.name, version], UNKNOWN.client),
    device: label([os, os && kind ? '·' : undefined, kind], UNKNOWN.device),
  };
}

function toSession(user: UserRecord, id: string, issuedAt: number): SessionResource {
  const ua = user.sessionAgents?.[id] ?? '';
  return { id, createdAt: new Date(issuedAt).toISOString(), ua, ...describeAgent(ua), userId: user.id };
}

/** The user's sessions as read, the caller's apart, the others newest first. */
export function listSessions(user: UserRecord, currentId: string | undefined): SessionList {
  const all = Object.entries(user.sessions)
    .sort(([, a], [, b]) => b - a)
    .map(([id, issuedAt]) => toSession(user, id, issuedAt));
  return {
    current: all.find((session) => session.id === currentId) ?? null,
    other: all.filter((session) => session.id !== currentId),
  };
}

export const CURRENT_SESSION = 'this is the session you are using: sign out to end it';

/**
 * Ends one session (`sessionId`) or every one but the caller's (`all`), at once: the next request
 * with an ended session's cookie is 401 (authenticate.ts checks the id against the user item). A
 * session the user does not have, another user's included, is 404 and changes nothing.
 */
export async function endSessions(
  user: UserRecord,
  currentId: string,
  target: { all: true } | { sessionId: string },
): Promise<SessionList> {
  let ended: string[];
  if ('all' in target) {
    ended = Object.keys(user.sessions).filter((id) => id !== currentId);
  } else {
    if (target.sessionId === currentId) throw invalid(CURRENT_SESSION);
    if (!Object.hasOwn(user.sessions, target.sessionId)) throw notFound('session not found');
    ended = [target.sessionId];
  }
  // A failed condition: the agents map appeared meanwhile (a first sign-in since the upgrade), or
  // the user is gone. Once more with the item as it is now.
  let updated = await removeSessions(user, ended);
  if (!updated) {
    const fresh = await getUser(user.id, { consistent: true });
    updated = fresh && (await removeSessions(fresh, ended));
  }
  if (!updated) throw notFound('user not found');
  return listSessions(updated, currentId);
}
