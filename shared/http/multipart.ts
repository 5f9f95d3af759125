import busboy from 'busboy';
import { invalid, ServiceError } from '#shared/errors';
import type { HttpRequest } from '#shared/http/request';

export interface FilePart {
  field: string;
  fileName: string;
  mimeType: string;
  bytes: Buffer;
}

export interface MultipartLimits {
  files: number;
}

/**
 * Reads the file parts of a `multipart/form-data` body (already whole in memory: API Gateway hands
 * the function the complete body). busboy does the parsing; other fields are ignored.
 */
export function readFileParts(request: HttpRequest, limits: MultipartLimits): Promise<FilePart[]> {
  const contentType = request.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw new ServiceError('unsupported_media_type', 'content-type must be multipart/form-data');
  }
  if (!request.body) throw invalid('the body has no file');
  const body = request.body;
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        limits: { files: limits.files, fields: 100, parts: limits.files + 100 },
        defParamCharset: 'utf8',
      });
    } catch {
      reject(invalid('malformed multipart/form-data content-type'));
      return;
    }
    const parts: FilePart[] = [];
    let failure: Error | undefined;
    parser.on('file', (field, stream, info) => {
      // busboy hands a part within one whole body as a single view of it: kept as is, not copied.
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      // A truncated body fails the part's stream as well as the parser; the parser's error answers.
      stream.on('error', () => undefined);
      stream.on('end', () =>
        parts.push({
          field,
          fileName: info.filename ?? '',
          mimeType: info.mimeType,
          bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks),
        }),
      );
    });
    parser.on('filesLimit', () => {
      failure ??= invalid(`at most ${limits.files} files per upload`);
    });
    parser.on('error', () => reject(invalid('malformed multipart/form-data body')));
    parser.on('close', () => {
      if (failure) reject(failure);
      else if (parts.length === 0) reject(invalid('the body has no file'));
      else resolve(parts);
    });
    parser.end(body);
  });
}
