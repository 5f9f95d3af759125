import type { FileRecord } from '#shared/files/model';
import { humanSize, readableTime } from '#shared/view/markup/format';

/** What `{file.*}` and `{user.*}` stand for on a file's view page and in its embed. */
export interface TemplateSubject {
  file: Pick<FileRecord, 'name' | 'originalName' | 'size' | 'type' | 'createdAt' | 'views'>;
  username: string;
}

const VARIABLE = /\{(file\.(?:name|originalName|size|type|createdAt|views)|user\.username)\}/g;

/**
 * Fills the variables of a user's view text (`content`, `embedTitle`, ...). Unknown variables stay
 * as written. The result is plain text: it is escaped where it is placed, never here.
 */
export function fillTemplate(template: string, subject: TemplateSubject): string {
  const { file } = subject;
  const values: Record<string, string> = {
    'file.name': file.name,
    'file.originalName': file.originalName,
    'file.size': humanSize(file.size),
    'file.type': file.type,
    'file.createdAt': readableTime(file.createdAt),
    'file.views': String(file.views),
    'user.username': subject.username,
  };
  return template.replace(VARIABLE, (_, variable: string) => values[variable] as string);
}
