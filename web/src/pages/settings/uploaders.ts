/**
 * The uploader configurations the dashboard hands out (no React here: the HTTP tests run the script
 * these functions write).
 */

/**
 * `POST /api/upload` takes a body of at most 4 MiB: a Lambda request is at most 6 MB, and API Gateway
 * passes binary bodies base64-encoded (4/3). ShareX sends each file in one such request.
 */
export const DIRECT_UPLOAD_LIMIT = 4 * 1024 * 1024;

/** A ShareX custom uploader: upload to this service with the token, the link from the JSON answer. */
export function sharexConfig(origin: string, token: string): string {
  return `${JSON.stringify(
    {
      Version: '17.0.0',
      Name: `File service (${new URL(origin).host})`,
      DestinationType: 'ImageUploader, TextUploader, FileUploader',
      RequestMethod: 'POST',
      RequestURL: `${origin}/api/upload`,
      Headers: { authorization: token },
      Body: 'MultipartFormData',
      FileFormName: 'file',
      URL: '{json:files[0].url}',
      ErrorMessage: '{json:error}',
    },
    null,
    2,
  )}\n`;
}

/**
 * A ShareX URL shortener (issue 34): the link ShareX is given goes to `POST /api/user/urls` as the
 * destination, the short link comes back in the answer's `url`.
 */
export function sharexShortenerConfig(origin: string, token: string): string {
  return `${JSON.stringify(
    {
      Version: '17.0.0',
      Name: `File service links (${new URL(origin).host})`,
      DestinationType: 'URLShortener',
      RequestMethod: 'POST',
      RequestURL: `${origin}/api/user/urls`,
      Headers: { authorization: token },
      Body: 'JSON',
      Data: '{"destination":"{input}"}',
      URL: '{json:url}',
      ErrorMessage: '{json:error}',
    },
    null,
    2,
  )}\n`;
}

/**
 * A shell script for Flameshot (or any file): uploads with curl, prints and copies the link. Up to
 * the direct limit (less 64 KiB for the multipart envelope) in one request; larger files through a
 * presigned upload (start, PUT straight to S3, complete), up to 5 GiB. On a refusal it prints the
 * service's own message (or S3's) and exits 1.
 */
export function uploadScript(origin: string, token: string): string {
  return `#!/bin/sh
# Uploads a file to ${origin} and copies its link.
#   upload.sh picture.png     upload a file
#   upload.sh                 take a Flameshot screenshot and upload it
# Needs curl. Files up to 4 MiB go in one request, larger ones (up to 5 GiB) through a presigned
# upload: the service signs a URL, the file goes straight to storage, the service records it.
set -eu
TOKEN='${token}'
SERVICE='${origin}'
DIRECT_LIMIT=${DIRECT_UPLOAD_LIMIT - 64 * 1024}
if [ "$#" -gt 0 ]; then
  file="$1"
else
  file="$(mktemp --suffix=.png)"
  flameshot gui --raw > "$file"
  [ -s "$file" ] || exit 0
fi
[ -f "$file" ] || { echo "upload.sh: no such file: $file" >&2; exit 1; }

# A string field of a JSON answer on stdin (the service answers compact JSON).
field() { sed -n "s/.*\\"$1\\":\\"\\([^\\"]*\\)\\".*/\\1/p" | head -n 1; }

# Sends a request; prints the answer, or the service's error message (S3's for the PUT) and fails.
request() {
  answer="$(curl -sS -w '\\n%{http_code}' "$@")" || exit 1
  status="$(printf '%s\\n' "$answer" | tail -n 1)"
  body="$(printf '%s\\n' "$answer" | sed '$d')"
  case "$status" in
    2??) printf '%s' "$body" ;;
    *)
      message="$(printf '%s' "$body" | field error)"
      [ -n "$message" ] || message="$(printf '%s' "$body" | sed -n 's:.*<Message>\\(.*\\)</Message>.*:\\1:p')"
      echo "upload failed (HTTP $status): \${message:-$body}" >&2
      exit 1
      ;;
  esac
}

size="$(wc -c < "$file" | tr -d ' ')"
if [ "$size" -le "$DIRECT_LIMIT" ]; then
  answer="$(request -H "authorization: $TOKEN" -F "file=@$file" "$SERVICE/api/upload")"
else
  name="$(basename "$file" | sed 's/[\\\\"]/\\\\&/g')"
  started="$(request -H "authorization: $TOKEN" -H 'content-type: application/json' \\
    --data "{\\"originalName\\":\\"$name\\",\\"size\\":$size}" "$SERVICE/api/user/files/uploads")"
  id="$(printf '%s' "$started" | field id)"
  request -T "$file" "$(printf '%s' "$started" | field url)" \\
    -H "content-type: $(printf '%s' "$started" | field content-type)" \\
    -H "if-none-match: $(printf '%s' "$started" | field if-none-match)" \\
    -H "x-amz-tagging: $(printf '%s' "$started" | field x-amz-tagging)" > /dev/null
  answer="$(request -X POST -H "authorization: $TOKEN" "$SERVICE/api/user/files/uploads/$id/complete")"
fi
link="$(printf '%s' "$answer" | field url)"
printf '%s' "$link" | { xclip -selection clipboard 2>/dev/null || wl-copy 2>/dev/null || true; }
echo "$link"
`;
}
