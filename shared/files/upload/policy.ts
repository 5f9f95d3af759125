import { extname } from 'node:path';
import { invalid, ServiceError } from '#shared/errors';
import { parseByteSize } from '#shared/quota';
import { currentSettings } from '#shared/settings/current';
import type { ServerSettings } from '#shared/settings/model';

/** What an upload's policy judges of each file: its name, recorded type and size. */
export interface FileToJudge {
  originalName: string;
  type: string;
  size: number;
}

const extensionOf = (name: string) => extname(name).slice(1).toLowerCase();

/** `video/*` blocks every video type, `application/x-msdownload` that one (parameters ignored). */
function typeBlocked(blocked: readonly string[], type: string): boolean {
  const bare = (type.split(';')[0] ?? '').trim().toLowerCase();
  const family = `${bare.split('/')[0]}/*`;
  return blocked.includes(bare) || blocked.includes(family);
}

/**
 * The instance's upload policy (server settings, issue 38: docs/settings.md), applied before any
 * byte is stored by every upload path (direct, chunked, presigned): a file over the size limit is a
 * 413, a blocked extension (of the uploaded name or the one `x-zipline-file-extension` gives) or
 * type a 400 naming it. Returns the settings judged by, for the caller's other defaults.
 */
export async function assertUploadAllowed(
  files: readonly FileToJudge[],
  extension: string | null = null,
): Promise<ServerSettings> {
  const settings = await currentSettings();
  const maxBytes = settings.filesMaxFileSize === null ? undefined : parseByteSize(settings.filesMaxFileSize);
  const blockedExtensions = settings.filesDisabledExtensions;
  for (const file of files) {
    if (maxBytes !== undefined && file.size > maxBytes) {
      throw new ServiceError(
        'too_large',
        `${file.originalName} is ${file.size} bytes: this server takes files of at most ${settings.filesMaxFileSize} (${maxBytes} bytes)`,
      );
    }
    for (const blocked of [extensionOf(file.originalName), extension?.replace(/^\./, '').toLowerCase()]) {
      if (blocked && blockedExtensions.includes(blocked))
        throw invalid(`files with the extension .${blocked} are not allowed on this server`);
    }
    if (typeBlocked(settings.filesDisabledTypes, file.type))
      throw invalid(`files of type ${file.type} are not allowed on this server`);
  }
  return settings;
}
