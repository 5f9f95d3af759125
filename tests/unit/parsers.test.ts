import fc from 'fast-check';
import { sealSession, unsealSession } from '#shared/auth/session';
import { jsonDepth, parseCookies } from '#shared/http/request';
import { matchRoute } from '#shared/routes/match';
import { routes } from '#shared/routes/table';
import { parseServiceKeys } from '#shared/secrets';

/** Reference depth: parse and walk. */
function parsedDepth(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(parsedDepth));
}

describe('jsonDepth', () => {
  test('equals the nesting of the parsed value for any JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonDepth(JSON.stringify(value))).toBe(parsedDepth(value));
      }),
      { numRuns: 500 },
    );
  });

  test('ignores brackets inside strings, including escaped quotes', () => {
    expect(jsonDepth('{"a": "[[[{{{\\"]]]"}')).toBe(1);
    expect(jsonDepth('[[["\\\\"]]]')).toBe(3);
  });
});

describe('parseCookies', () => {
  const cookieName = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);
  const cookieText = fc.stringMatching(/^[A-Za-z0-9_.*~,=-]{0,40}$/);

  test('recovers every name=value pair, whether sent as separate strings or one header', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(cookieName, cookieText), { selector: ([name]) => name, maxLength: 6 }),
        (pairs) => {
          const expected = Object.fromEntries(pairs);
          const parts = pairs.map(([name, value]) => `${name}=${value}`);
          expect({ ...parseCookies(parts) }).toEqual(expected);
          expect({ ...parseCookies([parts.join('; ')]) }).toEqual(expected);
        },
      ),
    );
  });

  test('never throws and never yields inherited keys, whatever the input', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 60 }), { maxLength: 5 }), (parts) => {
        const cookies = parseCookies(parts);
        expect(Object.getPrototypeOf(cookies)).toBeNull();
      }),
    );
    const hostile = parseCookies(['__proto__=x; constructor=y']);
    expect(Object.getOwnPropertyDescriptor(hostile, '__proto__')?.value).toBe('x');
    expect(Object.getPrototypeOf(hostile)).toBeNull();
  });

  test('keeps commas inside values (never splits on them)', () => {
    expect({ ...parseCookies(['a=1,2', 'b=Thu, 01 Jan 1970']) }).toEqual({ a: '1,2', b: 'Thu, 01 Jan 1970' });
  });
});

describe('matchRoute', () => {
  test('finds every route of the table, with a trailing slash too', () => {
    for (const route of routes) {
      const path = route.path.replace(/\{(\w+)\}/g, 'some-id');
      for (const candidate of [path, `${path}/`]) {
        const match = matchRoute(route.method, candidate);
        expect(match.kind).toBe('route');
        if (match.kind === 'route') expect(match.route).toBe(route);
      }
    }
  });

  test('never throws on arbitrary paths and methods', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD'),
        fc.string({ maxLength: 80 }),
        (method, path) => {
          expect(['route', 'method_not_allowed', 'not_found']).toContain(matchRoute(method, `/${path}`).kind);
        },
      ),
    );
  });
});

describe('service keys', () => {
  test('refuses short secrets, bad ids and non-JSON', () => {
    expect(() => parseServiceKeys('{"id":"1","secret":"short"}')).toThrow();
    expect(() => parseServiceKeys(`{"id":"bad id","secret":"${'x'.repeat(40)}"}`)).toThrow();
    expect(() => parseServiceKeys('not json')).toThrow();
    expect(() => parseServiceKeys('[]')).toThrow();
  });

  test('derives different keys per purpose and per master key, the first one signing', () => {
    const keys = parseServiceKeys(
      JSON.stringify([
        { id: '2', secret: 'b'.repeat(40) },
        { id: '1', secret: 'a'.repeat(40) },
      ]),
    );
    expect(keys.session.current.id).toBe('2');
    expect(keys.token.current.id).toBe('2');
    expect(Object.keys(keys.session.byId).sort()).toEqual(['1', '2']);
    expect(keys.session.byId['1']).not.toBe(keys.session.byId['2']);
    expect(keys.token.byId.get('2')?.toString('hex')).not.toBe(keys.session.byId['2']);
  });
});

describe('session seal', () => {
  test('round-trips the claims and refuses them after seven days', async () => {
    const claims = { userId: 'u1', sessionId: 's1', issuedAt: Date.now() };
    const sealed = await sealSession(claims);
    expect(await unsealSession(sealed)).toEqual(claims);
    expect(await unsealSession(sealed, claims.issuedAt + 604800_000 + 120_000)).toBeUndefined();
  });
});
