import { ApiError, api } from './client.ts';
import type { PresignedUpload, UploadResult } from './types.ts';

/** `POST /api/upload` takes multipart bodies up to 4 MiB; larger files go straight to S3. */
export const DIRECT_UPLOAD_LIMIT = 4 * 1024 * 1024 - 64 * 1024;

export interface UploadOptions {
  /** `x-zipline-deletes-at`: a lifetime such as `7d`, `date=<ISO 8601>`, or empty for never. */
  expiresIn: string;
  /** `x-zipline-password`: empty for none. */
  password?: string;
  maxViews: number | null;
  format: string;
  keepOriginalName: boolean;
  /** `x-zipline-folder`: one of the caller's folders, or empty for none. */
  folder?: string;
}

function optionHeaders(options: UploadOptions): Record<string, string> {
  const headers: Record<string, string> = { 'x-zipline-format': options.format };
  if (options.expiresIn) headers['x-zipline-deletes-at'] = options.expiresIn;
  if (options.maxViews !== null) headers['x-zipline-max-views'] = String(options.maxViews);
  if (options.keepOriginalName) headers['x-zipline-original-name'] = 'true';
  if (options.password) headers['x-zipline-password'] = options.password;
  if (options.folder) headers['x-zipline-folder'] = options.folder;
  return headers;
}

/** XMLHttpRequest, because fetch reports no upload progress. */
function send(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: XMLHttpRequestBodyInit,
  onProgress: (fraction: number) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve(xhr.responseText);
      let message = `the upload failed (${xhr.status})`;
      try {
        message = (JSON.parse(xhr.responseText) as { error?: string }).error ?? message;
      } catch {
        // S3's XML error or an empty body: the status says enough.
      }
      reject(new ApiError(xhr.status, message, null));
    };
    xhr.onerror = () => reject(new Error('the connection failed during the upload'));
    xhr.send(body);
  });
}

/**
 * Uploads one file with the chosen options and returns its link: small files in one multipart
 * request to the API, larger ones by the presigned flow (start, PUT to S3, complete).
 */
export async function uploadFile(
  file: File,
  options: UploadOptions,
  onProgress: (fraction: number) => void,
): Promise<UploadResult['files'][number]> {
  const headers = optionHeaders(options);
  if (file.size <= DIRECT_UPLOAD_LIMIT) {
    const form = new FormData();
    form.append('file', file, file.name);
    const answer = JSON.parse(await send('POST', '/api/upload', headers, form, onProgress)) as UploadResult;
    return answer.files[0] as UploadResult['files'][number];
  }
  const type = file.type || 'application/octet-stream';
  const started = await api<PresignedUpload>('/api/user/files/uploads', {
    method: 'POST',
    headers,
    json: { originalName: file.name, size: file.size, type },
  });
  await send(started.method, started.url, started.headers, file, onProgress);
  const done = await api<UploadResult>(`/api/user/files/uploads/${encodeURIComponent(started.id)}/complete`, {
    method: 'POST',
  });
  return done.files[0] as UploadResult['files'][number];
}
