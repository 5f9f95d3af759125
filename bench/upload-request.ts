/**
 * The upload the benchmark sends on every request (autocannon repeats one body): one small text
 * file in the multipart field `file`, as ShareX and Zipline's clients send it. Each upload gets a
 * fresh random public name, so the same body makes a new file each time.
 */
const BOUNDARY = 'bench-upload-boundary';
export const UPLOAD_REQUEST = {
  contentType: `multipart/form-data; boundary=${BOUNDARY}`,
  body: [
    `--${BOUNDARY}`,
    'Content-Disposition: form-data; name="file"; filename="bench.txt"',
    'Content-Type: text/plain',
    '',
    `bench file ${'x'.repeat(120)}`,
    `--${BOUNDARY}--`,
    '',
  ].join('\r\n'),
};
