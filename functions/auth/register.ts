import { refuseCrossSite } from '#shared/auth/authenticate';
import { hashPassword } from '#shared/auth/password';
import { openedSessionCookie, openSession } from '#shared/auth/session';
import { config } from '#shared/config/service';
import { forbidden } from '#shared/errors';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { INVITE_REFUSED, isUsable } from '#shared/invites/invites';
import { noteUserId } from '#shared/log/logger';
import { currentSettings } from '#shared/settings/current';
import { addressSubject } from '#shared/throttle/address';
import { countAttempt } from '#shared/throttle/counter';
import { createUser } from '#shared/users/creation';
import { toUserResource } from '#shared/users/model';
import { registerSchema } from '#shared/validation/invites/invites';

export const REGISTRATION_CLOSED =
  'registration is closed on this server: ask an administrator for an invite';

/**
 * `POST /api/auth/register` `{username, password, code?}`, as Zipline 4.4's (issue 38): a USER,
 * signed in as a login signs in, with the server's default view settings (users/creation.ts). Open while `featuresUserRegistration` is on, or with an invite's
 * code while `invitesEnabled` is on; the invite's use is counted in the user's own transaction
 * (invites.ts `inviteUse`), so a code serves exactly `maxUses` registrations however many race.
 * Attempts are counted per address before any bcrypt work (docs/security.md).
 */
export const handler = defineHandler(async (request) => {
  refuseCrossSite(request);
  const { username, password, code } = readJson(request, registerSchema);
  const settings = await currentSettings();
  const inviteCode = code ?? undefined;
  if (inviteCode === undefined ? !settings.featuresUserRegistration : !settings.invitesEnabled)
    throw forbidden(inviteCode === undefined ? REGISTRATION_CLOSED : 'invites are disabled on this server');
  await countAttempt({
    scope: 'register-address',
    subject: addressSubject(request.sourceIp),
    max: config().throttle.registerPerAddress,
  });
  // A cheap refusal before bcrypt; the transaction's condition decides a race.
  if (inviteCode !== undefined && !(await isUsable(inviteCode))) throw forbidden(INVITE_REFUSED);
  const user = await createUser({
    username,
    passwordHash: await hashPassword(password),
    role: 'USER',
    ...(inviteCode === undefined ? {} : { inviteCode }),
  });
  const session = await openSession(user, 'password', request.headers['user-agent']);
  noteUserId(request, user.id);
  return json(
    200,
    { user: toUserResource(session.user) },
    { cookies: [await openedSessionCookie(session, request.secure)] },
  );
});
