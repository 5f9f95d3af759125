import * as v from 'valibot';
import { MASKED_SECRET } from '#shared/settings/webhooks';
import { NO_CONTROL_CHARACTERS, strictMessage } from '#shared/validation/text';
import { webhookUrlProblem } from '#shared/webhooks/addresses';

/**
 * The webhook settings in `PATCH /api/server/settings` (docs/webhooks.md): each optional, null to
 * unset. A URL's scheme and IP literal are checked here; a name's addresses when it is called.
 */
const webhookUrl = v.pipe(
  v.string('must be a URL, or null'),
  v.trim(),
  v.maxLength(2048, 'must be at most 2048 characters'),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const problem = webhookUrlProblem(dataset.value);
    if (problem) addIssue({ message: problem });
  }),
);

/** An avatar Discord fetches itself: any https URL. */
const imageUrl = v.pipe(
  v.string('must be a URL, or null'),
  v.trim(),
  v.maxLength(2048, 'must be at most 2048 characters'),
  v.url('must be a URL'),
  v.startsWith('https://', 'must be an https:// URL'),
);

/** Discord's limits: a name of at most 80 characters, a message of 2000. */
const name = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(80, 'must be at most 80 characters'),
  v.regex(NO_CONTROL_CHARACTERS, 'must not contain control characters'),
);

const content = v.pipe(v.string('must be a string'), v.maxLength(2000, 'must be at most 2000 characters'));

const embedText = (max: number) =>
  v.nullable(v.pipe(v.string('must be a string'), v.maxLength(max, `must be at most ${max} characters`)));

const embed = v.strictObject(
  {
    title: v.optional(embedText(256), null),
    description: v.optional(embedText(4096), null),
    footer: v.optional(embedText(2048), null),
    color: v.optional(
      v.nullable(v.pipe(v.string(), v.regex(/^#[0-9a-f]{6}$/i, 'color must be #rrggbb'))),
      null,
    ),
    thumbnail: v.optional(v.boolean('thumbnail must be true or false'), false),
    imageOrVideo: v.optional(v.boolean('imageOrVideo must be true or false'), false),
    timestamp: v.optional(v.boolean('timestamp must be true or false'), false),
    url: v.optional(v.boolean('url must be true or false'), false),
  },
  strictMessage,
);

/** 16 to 256 printable characters; the mask `GET` answers stands for "unchanged" (dropped by the handler). */
const secret = v.pipe(
  v.string('must be a string'),
  v.check(
    (value) => value === MASKED_SECRET || /^[\x21-\x7e]{16,256}$/.test(value),
    'must be 16 to 256 printable characters without spaces',
  ),
);

const optional = <T extends v.GenericSchema>(schema: T) => v.optional(v.nullable(schema));

export const webhookSettingsEntries = {
  discordWebhookUrl: optional(webhookUrl),
  discordUsername: optional(name),
  discordAvatarUrl: optional(imageUrl),
  discordOnUploadWebhookUrl: optional(webhookUrl),
  discordOnUploadUsername: optional(name),
  discordOnUploadAvatarUrl: optional(imageUrl),
  discordOnUploadContent: optional(content),
  discordOnUploadEmbed: optional(embed),
  discordOnShortenWebhookUrl: optional(webhookUrl),
  discordOnShortenUsername: optional(name),
  discordOnShortenAvatarUrl: optional(imageUrl),
  discordOnShortenContent: optional(content),
  discordOnShortenEmbed: optional(embed),
  httpWebhookOnUpload: optional(webhookUrl),
  httpWebhookOnShorten: optional(webhookUrl),
  httpWebhookSecret: optional(secret),
};
