import { codeAt, stepNow } from '../tests/support/totp-codes.ts';
import { PASSWORD, passkeyRegistration, passkeySignIn, totpCandidate, totpEnrolled } from './fixtures.ts';
import { type Scenario, scenario } from './scenario.ts';
import { VIEWER } from './services.ts';

type Session = { cookie: string };

/**
 * The sign-in methods: TOTP, providers (none configured) and passkeys. `user` is a steady session;
 * `passkeyUser` renames its passkey at `passkeyPath`; `passkey` is another user's, signed in with.
 */
export function signInScenarios(
  passwordHash: string,
  user: Session,
  passkeyUser: Session,
  passkeyPath: string,
  passkey: Parameters<typeof passkeySignIn>[0],
): Scenario[] {
  return [
    // TOTP: the offer renders a QR code; enrolment and turning off each need a fresh user (they
    // change its state), as does a login with a recovery code (each is used once).
    scenario('GET /api/user/mfa/totp (offer)', 'GET', '/api/user/mfa/totp', 200, () => ({
      cookie: user.cookie,
    })),
    scenario('POST /api/user/mfa/totp', 'POST', '/api/user/mfa/totp', 200, async () => {
      const candidate = await totpCandidate(passwordHash);
      return {
        cookie: candidate.cookie,
        json: { secret: candidate.secret, code: codeAt(candidate.secret, stepNow()) },
      };
    }),
    scenario('DELETE /api/user/mfa/totp (recovery code)', 'DELETE', '/api/user/mfa/totp', 200, async () => {
      const enrolled = await totpEnrolled(passwordHash);
      return { cookie: enrolled.cookie, json: { code: enrolled.recoveryCode } };
    }),
    scenario(
      'POST /api/auth/login (recovery code)',
      'POST',
      '/api/auth/login',
      200,
      async () => {
        const enrolled = await totpEnrolled(passwordHash);
        return { json: { username: enrolled.username, password: PASSWORD, code: enrolled.recoveryCode } };
      },
      { load: 'password' },
    ),
    // Sign-in providers: the benchmark runs with none configured (as a deployment does by default), so
    // the public configuration lists none, the caller has none linked, and the starts and callback
    // answer the unknown provider's 404; the unlinks of a provider the user has not linked are their
    // 400 after the caller's read (by the session: a token is refused).
    scenario('GET /api/server/public', 'GET', '/api/server/public', 200, () => ({})),
    scenario('GET /api/auth/oauth (none linked)', 'GET', '/api/auth/oauth', 200, () => ({
      cookie: user.cookie,
    })),
    scenario('DELETE /api/auth/oauth (not linked: 400)', 'DELETE', '/api/auth/oauth', 400, () => ({
      cookie: user.cookie,
      json: { provider: 'GITHUB' },
    })),
    scenario(
      'GET /api/auth/oauth/{provider} (not configured: 404)',
      'GET',
      '/api/auth/oauth/{provider}',
      404,
      () => ({}),
      { url: () => '/api/auth/oauth/github' },
    ),
    scenario(
      'POST /api/auth/oauth/{provider} (link, not configured: 404)',
      'POST',
      '/api/auth/oauth/{provider}',
      404,
      () => ({ cookie: user.cookie }),
      { url: () => '/api/auth/oauth/github' },
    ),
    // The code a provider sign-in owes, without its pending sign-in: the refusal before any read.
    scenario('POST /api/auth/totp (no pending sign-in: 401)', 'POST', '/api/auth/totp', 401, () => ({
      json: { code: '123456' },
    })),
    scenario(
      'GET /api/auth/oauth/{provider}/callback (not configured: 404)',
      'GET',
      '/api/auth/oauth/{provider}/callback',
      404,
      () => ({}),
      { url: () => '/api/auth/oauth/github/callback?code=c&state=s' },
    ),
    scenario('DELETE /api/user/oauth (not linked: 400)', 'DELETE', '/api/user/oauth', 400, () => ({
      cookie: user.cookie,
      json: { provider: 'github' },
    })),
    // Passkeys: each ceremony with real options and a real answer (made untimed, by the software
    // authenticator); a registration per fresh user; the delete of an id the caller does not have.
    scenario('POST /api/user/passkeys/options', 'POST', '/api/user/passkeys/options', 200, () => ({
      cookie: passkeyUser.cookie,
      headers: VIEWER,
    })),
    scenario('POST /api/user/passkeys (verify and store)', 'POST', '/api/user/passkeys', 200, () =>
      passkeyRegistration(passwordHash),
    ),
    scenario(
      'PATCH /api/user/passkeys/{id}',
      'PATCH',
      '/api/user/passkeys/{id}',
      200,
      () => ({
        cookie: passkeyUser.cookie,
        json: { name: 'Bench laptop' },
      }),
      { url: () => passkeyPath },
    ),
    scenario(
      "DELETE /api/user/passkeys/{id} (not the caller's: 404)",
      'DELETE',
      '/api/user/passkeys/{id}',
      404,
      () => ({ cookie: user.cookie }),
      { url: () => passkeyPath },
    ),
    scenario('POST /api/auth/passkey/options', 'POST', '/api/auth/passkey/options', 200, () => ({
      headers: VIEWER,
    })),
    scenario('POST /api/auth/passkey (sign-in)', 'POST', '/api/auth/passkey', 200, () =>
      passkeySignIn(passkey),
    ),
  ];
}
