/**
 * Set-Cookie strings for the service's own cookies (the session, an OAuth sign-in's flow): always
 * HttpOnly and SameSite=Lax, Secure whenever the client came over HTTPS. Payload 2.0 sends each
 * string as its own header (`result.cookies`).
 */
export interface CookieOptions {
  maxAgeSeconds: number;
  path: string;
  secure: boolean;
  now?: number;
}

export function setCookie(name: string, value: string, options: CookieOptions): string {
  const expires =
    options.maxAgeSeconds === 0
      ? 'Thu, 01 Jan 1970 00:00:00 GMT'
      : new Date((options.now ?? Date.now()) + options.maxAgeSeconds * 1000).toUTCString();
  return `${name}=${value}; Max-Age=${options.maxAgeSeconds}; Path=${options.path}; Expires=${expires}; HttpOnly; SameSite=Lax${options.secure ? '; Secure' : ''}`;
}

/** Removes a cookie set on `path`. */
export const clearCookie = (name: string, path: string, secure: boolean) =>
  setCookie(name, '', { maxAgeSeconds: 0, path, secure });
