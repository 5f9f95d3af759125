import { offeredSecret, sealTotpSecret } from '#shared/mfa/sealing';
import { writeEnrolment } from '#shared/mfa/totp-store';
import { call, type TestResponse } from './client.ts';
import { acceptedAtOneStep, codeAt } from './totp-codes.ts';
import { signedInUser } from './users.ts';

let addresses = 0;
/** A fresh client address, so no test uses up another's per-address login budget. */
export const freshAddress = () => `192.0.2.${++addresses % 250}`;

export const login = (username: string, password: string, code?: string | null) =>
  call('POST', '/api/auth/login', {
    json: code === undefined ? { username, password } : { username, password, code },
    sourceIp: freshAddress(),
  });

export type EnrolledUser = Awaited<ReturnType<typeof signedInUser>> & {
  secret: string;
  recoveryCodes: string[];
  /** The step of the code that enrolled (used up). */
  enrolledAt: number;
  enrolment: TestResponse;
};

/**
 * A signed-in user who turned TOTP on through the API with a code of the step before this one, so
 * the codes of this step and the next are unused. (A refused enrolment writes nothing: when a step
 * boundary made the code too old, it is simply tried again.)
 */
export async function enrolledUser(role: Parameters<typeof signedInUser>[0] = 'USER'): Promise<EnrolledUser> {
  const me = await signedInUser(role);
  const offer = await call('GET', '/api/user/mfa/totp', { cookie: me.cookie });
  const secret = offer.body.secret as string;
  let enrolledAt = 0;
  const enrolment = await acceptedAtOneStep(
    (step) => {
      enrolledAt = step - 1;
      return call('POST', '/api/user/mfa/totp', {
        cookie: me.cookie,
        json: { secret, code: codeAt(secret, enrolledAt) },
      });
    },
    (answer) => answer.status === 200,
  );
  if (enrolment.status !== 200) throw new Error(`enrolment failed: ${enrolment.text}`);
  return { ...me, secret, recoveryCodes: enrolment.body.recoveryCodes, enrolledAt, enrolment };
}

/** A user with TOTP on and no code used yet (written through the store, as an enrolment writes it). */
export async function enrolledWithoutCodeUsed() {
  const me = await signedInUser();
  const secret = await offeredSecret(me.id, 0);
  const written = await writeEnrolment(me.id, {
    sealedSecret: await sealTotpSecret(me.id, secret),
    recoveryHashes: {},
    step: undefined,
    enrolments: 0,
  });
  if (!written) throw new Error('fixture enrolment failed');
  return { ...me, secret };
}
