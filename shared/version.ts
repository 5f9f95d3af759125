/** The service's version, as in package.json (a test keeps the two equal); `GET /api/version` answers it. */
export const SERVICE_VERSION = '0.1.0';
