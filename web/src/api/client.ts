/** An API error: its status, the API's own message and, for 429/503, when to retry. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfterSeconds: number | null,
  ) {
    super(message);
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Sent as the JSON body. */
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
}

let onUnauthorized = () => {};
/** Sign-ins whose 401 is a refused sign-in, not an ended session. */
const SIGN_IN_PATHS = ['/api/auth/login', '/api/auth/passkey', '/api/auth/totp'];
/** Called on any 401 except a refused sign-in: the session expired or was revoked. */
export function setUnauthorizedHandler(handler: () => void) {
  onUnauthorized = handler;
}

async function errorOf(response: Response): Promise<ApiError> {
  let message = `the request failed (${response.status})`;
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object' && 'error' in body && typeof body.error === 'string') {
      message = body.error;
    }
  } catch {
    // Not the API's JSON error (a proxy's page): the status says enough.
  }
  const retryAfter = Number(response.headers.get('retry-after'));
  return new ApiError(response.status, message, retryAfter > 0 ? retryAfter : null);
}

/** Same-origin request to the API with the session cookie; a non-2xx answer throws an ApiError. */
export async function request(path: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  let body = options.body;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const response = await fetch(path, { method: options.method ?? 'GET', headers, body });
  if (!response.ok) {
    const error = await errorOf(response);
    if (response.status === 401 && !SIGN_IN_PATHS.includes(path)) onUnauthorized();
    throw error;
  }
  return response;
}

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await request(path, options)).json() as Promise<T>;
}

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return 'something went wrong';
}
