/**
 * Zipline 4.4's Metric (its `GET /api/stats` answers an array of them): the instance's figures at
 * one moment. Here one is taken each day by the daily job (metrics/collect.ts) and kept as that
 * day's item (metrics/store.ts); docs/metrics.md says what each figure counts.
 */
export interface FilesUser {
  username: string | null;
  sum: number;
  storage: number;
  views: number;
}

export interface UrlsUser {
  username: string | null;
  sum: number;
  views: number;
}

export interface TypeCount {
  type: string;
  sum: number;
}

export interface MetricData {
  users: number;
  files: number;
  fileViews: number;
  urls: number;
  urlViews: number;
  storage: number;
  filesUsers: FilesUser[];
  urlsUsers: UrlsUser[];
  types: TypeCount[];
}

export interface Metric {
  /** The UTC day it was taken, `YYYY-MM-DD`. */
  id: string;
  /** The day's first run. */
  createdAt: string;
  /** The day's last run: the moment the figures are of. */
  updatedAt: string;
  data: MetricData;
}

/**
 * How many users and types a day keeps, the largest first: a day's item stays about 3 KB whatever
 * the instance holds, so a year of them is one Query page (docs/metrics.md, costs).
 */
export const TOP_ENTRIES = 10;

/** The UTC day (`YYYY-MM-DD`) of an instant. */
export const dayOf = (instant: Date) => instant.toISOString().slice(0, 10);
