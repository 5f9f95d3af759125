export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Methods that change nothing. A browser sends the session cookie with any site's request, so every
 * other method, cookie-authenticated, must come from an allowed page (auth/authenticate.ts); the
 * route table derives its CSRF rules (routes/route.ts `checksOrigin`) from this one set.
 */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);
