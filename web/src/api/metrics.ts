import { api } from './client.ts';

/** Zipline 4.4's Metric as `GET /api/stats` answers it (docs/metrics.md). */
export interface MetricData {
  users: number;
  files: number;
  fileViews: number;
  urls: number;
  urlViews: number;
  storage: number;
  filesUsers: { username: string | null; sum: number; storage: number; views: number }[];
  urlsUsers: { username: string | null; sum: number; views: number }[];
  types: { type: string; sum: number }[];
}

export interface Metric {
  id: string;
  createdAt: string;
  updatedAt: string;
  data: MetricData;
}

/** The ranges the page offers, in days (`all`: every day kept). */
export const RANGES = { '7': '7 days', '30': '30 days', '365': 'A year', all: 'All' } as const;
export type Range = keyof typeof RANGES;

/** The days of a range, newest first as the API answers them. */
export function fetchMetrics(range: Range): Promise<Metric[]> {
  if (range === 'all') return api<Metric[]>('/api/stats?all=true');
  const from = new Date(Date.now() - Number(range) * 86_400_000).toISOString();
  return api<Metric[]>(`/api/stats?${new URLSearchParams({ from })}`);
}
