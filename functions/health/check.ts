import { ServiceError } from '#shared/errors';
import { pingTable } from '#shared/health';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { loggableError, logger } from '#shared/log/logger';

/**
 * For uptime monitors, public as in Zipline: `{"pass": true}` once the table answered a read; a 503
 * (the usual error body, `Retry-After`) when it did not. The failure's cause is logged, not shown.
 */
export const handler = defineHandler(async () => {
  try {
    await pingTable();
  } catch (error) {
    logger.error('healthcheck: the table did not answer', { error: loggableError(error) });
    throw new ServiceError('unavailable', 'the service cannot reach its table', { 'retry-after': '5' });
  }
  return json(200, { pass: true });
});
