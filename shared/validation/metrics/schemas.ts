import * as v from 'valibot';
import { invalid } from '#shared/errors';
import { validate } from '#shared/http/request';

/**
 * `GET /api/stats?from=&to=&all=` as Zipline 4.4 reads it (docs/metrics.md): `from` and `to` are
 * instants (defaults: a week ago and now), `all=true` ignores the range and answers every day kept.
 * An instant is ISO 8601, a date (`2026-11-26`, its midnight UTC) or a date-time with seconds'
 * fractions optional and a zone (`Z` or `±hh:mm`), which is what Zipline's dashboard sends.
 */

/** Zipline's default range: the last seven days. */
export const DEFAULT_RANGE_MS = 7 * 86_400_000;

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** A real calendar day (no 30 February, which `Date.parse` would roll into March) and a parsable time. */
export function isInstant(value: string): boolean {
  const match = INSTANT.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1, 4).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  const sameDay =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return sameDay && !Number.isNaN(Date.parse(value));
}

const instant = (name: string) => {
  const rule = `${name} must be an ISO 8601 date or date-time such as 2026-11-26 or 2026-11-26T12:00:00Z`;
  return v.optional(v.pipe(v.string(rule), v.maxLength(40, rule), v.check(isInstant, rule)));
};

/** Unknown parameters (cache-busters) are ignored, as on the other listings. */
export const statsQuerySchema = v.object(
  {
    from: instant('from'),
    to: instant('to'),
    all: v.optional(v.picklist(['true', 'false'], 'all must be true or false')),
  },
  'invalid query',
);

/** The days asked for: none (`all=true`: every day kept) or a range, Zipline's checks on it. */
export function readStatsRange(query: unknown, now: Date): { from: Date; to: Date } | undefined {
  const { from, to, all } = validate(statsQuerySchema, query);
  if (all === 'true') return undefined;
  const range = {
    from: from === undefined ? new Date(now.getTime() - DEFAULT_RANGE_MS) : new Date(from),
    to: to === undefined ? now : new Date(to),
  };
  if (range.from > range.to) throw invalid('from must not be after to');
  if (range.from > now) throw invalid('from must not be in the future');
  return range;
}
