import ms from 'ms';
import * as v from 'valibot';
import { NAME_FORMATS } from '#shared/files/names';
import { parseByteSize } from '#shared/quota';
import { webhookSettingsEntries } from '#shared/validation/settings/webhooks';
import { NO_CONTROL_CHARACTERS, strictMessage } from '#shared/validation/text';
import { viewSchema } from '#shared/validation/users/account';

/**
 * `PATCH /api/server/settings`' body (issue 38, docs/settings.md): any of the settings, each checked
 * on its own; an unknown name, or any bad value, is a 400 naming it and nothing is changed. `null`
 * returns a setting to its deploy-time default.
 */
const MAX_LIFETIME_MS = 10 * 365.25 * 86_400_000;

const flag = (_name: string) => v.boolean('must be true or false');

const text = (max: number) =>
  v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.maxLength(max, `must be at most ${max} characters`),
    v.regex(NO_CONTROL_CHARACTERS, 'must not contain control characters'),
  );

/** A lifetime `ms` reads (`7d`, `2 weeks`), ahead, at most ten years. */
const lifetime = v.pipe(
  v.string('must be a lifetime such as "7d" or "2 weeks", or null'),
  v.maxLength(32, 'is too long'),
  v.check((value) => {
    let length: number | undefined;
    try {
      length = ms(value as ms.StringValue);
    } catch {
      return false;
    }
    return typeof length === 'number' && length > 0 && length <= MAX_LIFETIME_MS;
  }, 'must be a lifetime such as "7d" or "2 weeks", more than 0 and at most 10 years'),
);

const byteSize = v.pipe(
  v.string('must be a byte size such as "100mb", or null'),
  v.maxLength(32, 'is too long'),
  v.check((value) => parseByteSize(value) !== undefined, 'must be a positive byte size such as "100mb"'),
);

const extension = v.pipe(
  v.string('must be a list of extensions'),
  v.trim(),
  v.toLowerCase(),
  v.transform((value) => value.replace(/^\./, '')),
  v.regex(/^[a-z0-9]{1,16}$/, 'must be extensions of 1 to 16 letters or digits, such as "exe"'),
);

const contentType = v.pipe(
  v.string('must be a list of content types'),
  v.trim(),
  v.toLowerCase(),
  v.regex(
    /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/(\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,126})$/,
    'must be content types such as "application/x-msdownload" or families such as "video/*"',
  ),
);

const hostName = v.pipe(
  v.string('must be a list of host names'),
  v.trim(),
  v.toLowerCase(),
  v.regex(
    /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*(:\d{1,5})?$/,
    'must be host names such as "files.example.com"',
  ),
);

const list = <T extends v.GenericSchema>(item: T, max: number) =>
  v.pipe(
    v.array(item, 'must be a list'),
    v.maxLength(max, `must hold at most ${max} entries`),
    v.transform((values) => [...new Set(values)]),
  );

const optional = <T extends v.GenericSchema>(schema: T) => v.optional(v.nullable(schema));

export const settingsPatchSchema = v.strictObject(
  {
    featuresUserRegistration: optional(flag('featuresUserRegistration')),
    invitesEnabled: optional(flag('invitesEnabled')),
    invitesLength: optional(
      v.pipe(
        v.number('must be a number'),
        v.safeInteger('must be a whole number'),
        v.minValue(6, 'must be at least 6'),
        v.maxValue(64, 'must be at most 64'),
      ),
    ),
    filesDefaultFormat: optional(v.picklist(NAME_FORMATS, `must be one of ${NAME_FORMATS.join(', ')}`)),
    filesDefaultExpiration: optional(lifetime),
    filesMaxFileSize: optional(byteSize),
    filesDisabledExtensions: optional(list(extension, 100)),
    filesDisabledTypes: optional(list(contentType, 100)),
    filesRemoveGpsMetadata: optional(flag('filesRemoveGpsMetadata')),
    usersDefaultView: optional(viewSchema),
    domains: optional(list(hostName, 20)),
    websiteTitle: optional(v.pipe(text(64), v.minLength(1, 'must not be empty'))),
    websiteLoginText: optional(text(1000)),
    ...webhookSettingsEntries,
  },
  strictMessage,
);

export type SettingsPatch = v.InferOutput<typeof settingsPatchSchema>;
