import { deploySettingDefaults } from '#shared/config/settings';
import { type WebhookSettings, webhookDefaults } from '#shared/settings/webhooks';

/**
 * The instance's settings an administrator changes at run time (issue 38, docs/settings.md), by
 * Zipline 4.4's names where Zipline has the setting. One table item holds what was changed; what it
 * lacks is the deploy-time default. Webhook targets are more keys of the same item (settings/webhooks.ts).
 */
export interface ServerSettings extends WebhookSettings {
  /** Anyone may create an account at `POST /api/auth/register`. */
  featuresUserRegistration: boolean;
  /** Administrators may hand out invites, and an invite's code opens registration. */
  invitesEnabled: boolean;
  /** Characters of a new invite's code. */
  invitesLength: number;
  /** The public-name format of an upload that sends no `x-zipline-format`. */
  filesDefaultFormat: 'random' | 'uuid' | 'date' | 'name' | 'gfycat' | 'random-words';
  /** The lifetime of an upload that sends no `x-zipline-deletes-at` (`7d`, `2 weeks`), or null: kept. */
  filesDefaultExpiration: string | null;
  /** The largest file one upload may hold, as a byte size ("100mb"), or null: only S3's limit. */
  filesMaxFileSize: string | null;
  /** Extensions refused at upload, lowercase, without their dot. */
  filesDisabledExtensions: string[];
  /** Content types refused at upload (`application/x-msdownload`), or their family (`video/*`). */
  filesDisabledTypes: string[];
  /** GPS tags are removed from uploaded JPEG, PNG, WebP and TIFF images (with sharp) before storing. */
  filesRemoveGpsMetadata: boolean;
  /** The view settings a new account starts with (the shape of `PATCH /api/user`'s `view`). */
  usersDefaultView: Record<string, string | boolean>;
  /** Host names the dashboard offers for returned URLs (`x-zipline-domain`). */
  domains: string[];
  /** The name in the dashboard's title bar, tab titles, manifest and the sign-in page. */
  websiteTitle: string;
  /** Shown under the sign-in form (a notice, terms, who to ask for an account), or empty. */
  websiteLoginText: string;
}

export type SettingName = keyof ServerSettings;

/** What a fresh deployment runs with: the stack's context (config/settings.ts) where it sets one. */
export function defaultSettings(): ServerSettings {
  const deployed = deploySettingDefaults();
  return {
    featuresUserRegistration: deployed.userRegistration,
    invitesEnabled: true,
    invitesLength: 8,
    filesDefaultFormat: 'random',
    filesDefaultExpiration: null,
    filesMaxFileSize: null,
    filesDisabledExtensions: [],
    filesDisabledTypes: [],
    filesRemoveGpsMetadata: false,
    usersDefaultView: {},
    domains: [],
    websiteTitle: deployed.siteTitle,
    websiteLoginText: '',
    ...webhookDefaults(),
  };
}

export const SETTING_NAMES = Object.keys(defaultSettings()) as SettingName[];

/** The settings from a stored item's attributes, defaults where it has none. */
export function settingsOf(item: Record<string, unknown> | undefined): ServerSettings {
  const settings = defaultSettings() as unknown as Record<string, unknown>;
  for (const name of SETTING_NAMES) {
    if (item?.[name] !== undefined) settings[name] = item[name];
  }
  return settings as unknown as ServerSettings;
}
