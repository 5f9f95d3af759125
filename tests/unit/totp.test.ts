import {
  newRecoveryCodes,
  normalizeRecoveryCode,
  RECOVERY_CODE,
  recoveryCodeHash,
} from '#shared/mfa/recovery-codes';
import { isOfferedSecret, offeredSecret, openTotpSecret, sealTotpSecret } from '#shared/mfa/sealing';
import { matchingStep, stepAt, toBase32, totpUri } from '#shared/mfa/totp-code';

/** RFC 6238 appendix B: the SHA-1 seed, and its 8-digit codes' last six digits at given times. */
const RFC_SECRET = toBase32(Buffer.from('12345678901234567890'));
const RFC_VECTORS: [number, string][] = [
  [59, '287082'],
  [1111111109, '081804'],
  [1234567890, '005924'],
  [2000000000, '279037'],
];

describe('codes (RFC 6238, six digits, 30-second steps, one step either side)', () => {
  test.each(RFC_VECTORS)('the RFC test vector at %i s', (seconds, code) => {
    expect(matchingStep(RFC_SECRET, code, seconds * 1000)).toBe(stepAt(seconds * 1000));
  });

  test('a code of the step before or after is accepted and says which; two steps off is not', () => {
    const [seconds, code] = RFC_VECTORS[1] as [number, string];
    const step = stepAt(seconds * 1000);
    const at = (offsetSteps: number) => (step + offsetSteps) * 30_000 + 12_345;
    expect(matchingStep(RFC_SECRET, code, at(1))).toBe(step);
    expect(matchingStep(RFC_SECRET, code, at(-1))).toBe(step);
    expect(matchingStep(RFC_SECRET, code, at(2))).toBeUndefined();
    expect(matchingStep(RFC_SECRET, code, at(-2))).toBeUndefined();
    // The very last and first millisecond of the window.
    expect(matchingStep(RFC_SECRET, code, (step + 2) * 30_000 - 1)).toBe(step);
    expect(matchingStep(RFC_SECRET, code, (step + 2) * 30_000)).toBeUndefined();
  });

  test('anything but six digits is no code', () => {
    for (const code of ['28708', '2870820', '28708a', ' 287082', '', '２８７０８２']) {
      expect(matchingStep(RFC_SECRET, code, 59_000)).toBeUndefined();
    }
  });

  test('the otpauth URI names issuer and account and carries the parameters apps need', () => {
    const uri = new URL(totpUri(RFC_SECRET, 'File service (files.example.com)', 'alice'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(RFC_SECRET);
    expect(uri.searchParams.get('issuer')).toBe('File service (files.example.com)');
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
    expect(decodeURIComponent(uri.pathname)).toContain('alice');
  });
});

describe('recovery codes', () => {
  test('ten distinct codes of 80 random bits, hashed per user, typed in any case and grouping', () => {
    const codes = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(normalizeRecoveryCode(code)).toMatch(RECOVERY_CODE);
    const [code] = codes as [string];
    const hash = recoveryCodeHash('user-a', code);
    expect(recoveryCodeHash('user-a', ` ${code.toUpperCase().replaceAll('-', ' ')} `)).toBe(hash);
    expect(recoveryCodeHash('user-b', code)).not.toBe(hash);
    expect(hash).not.toContain(normalizeRecoveryCode(code));
  });
});

describe('the secret at rest', () => {
  test('sealed with AES-GCM: opens for its user only, and any changed character refuses it', async () => {
    const sealed = await sealTotpSecret('user-a', RFC_SECRET);
    expect(sealed).not.toContain(RFC_SECRET);
    expect(await openTotpSecret('user-a', sealed)).toEqual({
      secretBase32: RFC_SECRET,
      underCurrentKey: true,
    });
    expect(await openTotpSecret('user-b', sealed)).toBeUndefined();
    const parts = sealed.split('.');
    for (let index = 2; index < parts.length; index++) {
      const part = parts[index] as string;
      const flipped = [...parts];
      flipped[index] = (part[0] === 'A' ? 'B' : 'A') + part.slice(1);
      expect(await openTotpSecret('user-a', flipped.join('.'))).toBeUndefined();
    }
    for (const garbage of ['', 'v1', 'v1.test.x.y', 'v2.test.a.b', `${sealed}.extra`]) {
      expect(await openTotpSecret('user-a', garbage)).toBeUndefined();
    }
    // Two seals of one secret differ (a fresh IV each).
    expect(await sealTotpSecret('user-a', RFC_SECRET)).not.toBe(sealed);
  });

  test('the offered secret is recognised for its user and enrolment count only', async () => {
    const offer = await offeredSecret('user-a', 0);
    expect(await isOfferedSecret('user-a', 0, offer)).toBe(true);
    expect(await isOfferedSecret('user-a', 0, offer.toLowerCase())).toBe(true);
    expect(await isOfferedSecret('user-a', 1, offer)).toBe(false);
    expect(await isOfferedSecret('user-b', 0, offer)).toBe(false);
    expect(await isOfferedSecret('user-a', 0, RFC_SECRET)).toBe(false);
  });
});
