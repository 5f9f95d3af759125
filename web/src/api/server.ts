import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from './client.ts';

/** `GET /api/server/public` (no authentication), as far as the dashboard reads it (issue 38). */
export interface ServerInfo {
  website: { title: string; loginText: string };
  features: { userRegistration: boolean; invites: boolean };
}

export const serverInfoQuery = {
  queryKey: ['server-public'],
  queryFn: () => api<ServerInfo>('/api/server/public'),
  // The server's functions apply a settings change within 10 s: a minute here is soon enough.
  staleTime: 60_000,
};

export const useServerInfo = () => useQuery(serverInfoQuery);

/** The site's title (the server setting), `File service` until it is known. */
export function useSiteTitle(): string {
  return useServerInfo().data?.website.title ?? 'File service';
}

/** Sets the tab's title: `<page> · <site title>`. */
export function usePageTitle(page?: string) {
  const site = useSiteTitle();
  useEffect(() => {
    document.title = page ? `${page} · ${site}` : site;
  }, [page, site]);
}

/** The run-time settings (`GET/PATCH /api/server/settings`, SUPERADMIN), as the API names them. */
export interface ServerSettings {
  featuresUserRegistration: boolean;
  invitesEnabled: boolean;
  invitesLength: number;
  filesDefaultFormat: string;
  filesDefaultExpiration: string | null;
  filesMaxFileSize: string | null;
  filesDisabledExtensions: string[];
  filesDisabledTypes: string[];
  filesRemoveGpsMetadata: boolean;
  usersDefaultView: Record<string, string | boolean>;
  domains: string[];
  websiteTitle: string;
  websiteLoginText: string;
  /** Webhooks (docs/webhooks.md); the secret comes masked when set. */
  discordWebhookUrl: string | null;
  discordUsername: string | null;
  discordAvatarUrl: string | null;
  discordOnUploadContent: string | null;
  discordOnShortenContent: string | null;
  httpWebhookOnUpload: string | null;
  httpWebhookOnShorten: string | null;
  httpWebhookSecret: string | null;
}

/** An invite, as `/api/auth/invites` answers it (Zipline's shape). */
export interface Invite {
  id: string;
  code: string;
  uses: number;
  maxUses: number | null;
  expiresAt: string | null;
  createdAt: string;
  inviter: { username: string };
}
