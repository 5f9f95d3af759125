import { readBoolean } from '#shared/config/env';

/** The stack's defaults of some run-time settings (settings/model.ts has the others). */
export interface DeploySettingDefaults {
  siteTitle: string;
  userRegistration: boolean;
}

let settingDefaults: DeploySettingDefaults | undefined;

/** `SITE_TITLE`, `USER_REGISTRATION` (true/false): defaults an administrator changes at run time. */
export function deploySettingDefaults(): DeploySettingDefaults {
  settingDefaults ??= {
    siteTitle: (process.env.SITE_TITLE ?? '').trim().slice(0, 64) || 'File service',
    userRegistration: readBoolean('USER_REGISTRATION'),
  };
  return settingDefaults;
}
