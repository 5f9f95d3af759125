/**
 * The one route table. The CDK stack builds a function and an API route from each line, the local
 * runner and the tests dispatch through it, so the three cannot drift apart. Columns: method, path,
 * handler module, who may call (route.ts derives the keys, the caller's read and the CSRF check from
 * it), the body the handler reads, the area (the nested stack), then what else the function needs.
 *
 * `hashesPasswords`: upload, upload start and file PATCH hash a file's password, `/raw` checks `?pw=`,
 * and so does `POST /view/{name}`, the view page's password form (its view counted once the password
 * is right). `usesKeys` on a public line: it seals a session (login, a provider's or a passkey's
 * sign-in, the TOTP step, a registration) or starts a provider flow whose state it seals. A sign-in with a provider
 * starts with a GET (it signs nobody in by itself), and the same GET takes the provider's answer back
 * as Zipline's does (so it holds the callback's needs); a link starts with a POST by the session.
 * `/api/user/files/{id}` takes a file's id or its public name (Zipline's); its `/password` is Zipline's
 * public password check, by name, counted as `?pw=` guesses are (no view counted).
 * `/api/user/files/{id}/raw` is the owner's own view of the bytes (dashboard previews and "open"): it
 * counts no view. `/view/{name}` is a file's public page, `/api/oembed/{name}` the oEmbed answer view
 * pages link to (embeds on): its texts, no view counted. `/u/{name}` is Zipline's files route, every
 * File's `url`: the page while its owner shows view pages, else the file (its POST the refusal page's
 * password form); `/r/{name}` is Zipline 4.4's name for `/raw/{name}`, the same function.
 * Short links (issue 34, docs/links.md):
 * `/go/{code}` redirects (one GetItem, one UpdateItem), `/view/url/{id}` is a protected link's
 * password form; `POST /api/user/urls/{id}/password` is public, as Zipline's.
 */
import { ACCESS, BUCKET } from '#shared/routes/access';
import { type Route, route } from '#shared/routes/route';

// biome-ignore format: one line per route, so a search for a method and path finds the whole line
export const routes: readonly Route[] = [
  route('GET', '/api/healthcheck', 'health/check', 'public', 'none', 'account', { table: ACCESS.health }),
  route('GET', '/api/version', 'health/version', 'signed-in', 'none', 'account'),
  route('POST', '/api/auth/login', 'auth/login', 'public', 'json', 'account', { usesKeys: true, hashesPasswords: true, table: ACCESS.login }),
  route('GET', '/api/auth/oauth', 'auth/oauth-linked', 'signed-in', 'none', 'account'),
  route('DELETE', '/api/auth/oauth', 'auth/oauth-unlink', 'signed-in', 'json', 'account', { table: ACCESS.oauthUnlink }),
  route('GET', '/api/auth/oauth/{provider}', 'auth/oauth-start', 'public', 'none', 'account', { usesKeys: true, oauth: 'secrets', table: ACCESS.oauthCallback }),
  route('POST', '/api/auth/oauth/{provider}', 'auth/oauth-link', 'signed-in', 'none', 'account', { oauth: 'providers' }),
  route('GET', '/api/auth/oauth/{provider}/callback', 'auth/oauth-callback', 'public', 'none', 'account', { usesKeys: true, oauth: 'secrets', table: ACCESS.oauthCallback }),
  route('POST', '/api/auth/totp', 'auth/totp', 'public', 'json', 'account', { usesKeys: true, table: ACCESS.signInCode }),
  route('POST', '/api/auth/passkey/options', 'auth/passkey-options', 'public', 'none', 'account', { passkeys: true, table: ACCESS.passkeySignInOptions }),
  route('POST', '/api/auth/passkey', 'auth/passkey-sign-in', 'public', 'json', 'account', { usesKeys: true, passkeys: true, table: ACCESS.passkeySignIn }),
  route('POST', '/api/auth/logout', 'auth/logout', 'signed-in', 'none', 'account', { table: ACCESS.logout }),
  route('GET', '/api/auth/logout', 'auth/logout', 'signed-in', 'none', 'account', { table: ACCESS.logout }),
  route('GET', '/api/server/public', 'server/public', 'public', 'none', 'account', { oauth: 'providers', table: ACCESS.serverPublic }),
  route('GET', '/api/setup', 'setup/get', 'public', 'none', 'account', { table: ACCESS.setupCheck, setupCode: 'announces' }),
  route('POST', '/api/setup', 'setup/post', 'public', 'json', 'account', { hashesPasswords: true, table: ACCESS.setup, setupCode: 'checks' }),
  route('GET', '/api/user', 'user/get', 'signed-in', 'none', 'account'),
  route('PATCH', '/api/user', 'user/patch', 'signed-in', 'json', 'account', { hashesPasswords: true, table: ACCESS.userPatch }),
  route('GET', '/api/user/avatar', 'user/avatar', 'signed-in', 'none', 'account', { table: ACCESS.avatar }),
  route('GET', '/api/user/token', 'user/token-get', 'signed-in', 'none', 'account'),
  route('PATCH', '/api/user/token', 'user/token-reset', 'signed-in', 'none', 'account', { table: ACCESS.tokenReset }),
  route('DELETE', '/api/user/oauth', 'user/oauth-unlink', 'signed-in', 'json', 'account', { table: ACCESS.oauthUnlink }),
  route('GET', '/api/user/mfa/totp', 'user/mfa-totp-get', 'signed-in', 'none', 'account'),
  route('POST', '/api/user/mfa/totp', 'user/mfa-totp-enable', 'signed-in', 'json', 'account', { table: ACCESS.totpEnable }),
  route('DELETE', '/api/user/mfa/totp', 'user/mfa-totp-disable', 'signed-in', 'json', 'account', { table: ACCESS.totpDisable }),
  route('POST', '/api/user/passkeys/options', 'user/passkeys-options', 'signed-in', 'none', 'account', { passkeys: true, table: ACCESS.passkeyOptions }),
  route('POST', '/api/user/passkeys', 'user/passkeys-register', 'signed-in', 'json', 'account', { passkeys: true, table: ACCESS.passkeyRegister }),
  route('PATCH', '/api/user/passkeys/{id}', 'user/passkeys-rename', 'signed-in', 'json', 'account', { table: ACCESS.passkeyRename }),
  route('DELETE', '/api/user/passkeys/{id}', 'user/passkeys-delete', 'signed-in', 'none', 'account', { table: ACCESS.passkeyDelete }),
  route('GET', '/api/users', 'users/list', 'admin', 'none', 'admin', { table: ACCESS.usersList }),
  route('POST', '/api/users', 'users/create', 'admin', 'json', 'admin', { hashesPasswords: true, table: ACCESS.usersCreate }),
  route('GET', '/api/users/{id}', 'users/get', 'admin', 'none', 'admin'),
  route('PATCH', '/api/users/{id}', 'users/patch', 'admin', 'json', 'admin', { hashesPasswords: true, table: ACCESS.usersPatch }),
  route('DELETE', '/api/users/{id}', 'users/delete', 'admin', 'json', 'admin', { table: ACCESS.usersDelete, bucket: BUCKET.usersDelete }),
  route('POST', '/api/upload', 'files/upload', 'signed-in', 'multipart', 'files', { hashesPasswords: true, native: 'sharp', table: ACCESS.upload, bucket: BUCKET.upload }),
  route('POST', '/api/upload/partial', 'files/upload-partial', 'signed-in', 'multipart', 'files', { hashesPasswords: true, table: ACCESS.upload, bucket: BUCKET.upload }),
  route('GET', '/api/user/files', 'files/list', 'signed-in', 'none', 'files', { table: ACCESS.filesList }),
  route('GET', '/api/user/files/incomplete', 'files/incomplete-list', 'signed-in', 'none', 'files', { table: ACCESS.incompleteList }),
  route('DELETE', '/api/user/files/incomplete', 'files/incomplete-abandon', 'signed-in', 'json', 'files', { table: ACCESS.incompleteAbandon, bucket: BUCKET.incompleteAbandon }),
  route('POST', '/api/user/files/uploads', 'files/upload-start', 'signed-in', 'json', 'files', { hashesPasswords: true, table: ACCESS.uploadStart, bucket: BUCKET.uploadStart }),
  route('POST', '/api/user/files/uploads/{id}/complete', 'files/upload-complete', 'signed-in', 'none', 'files', { table: ACCESS.uploadComplete, bucket: BUCKET.uploadComplete }),
  route('GET', '/api/user/files/{id}', 'files/get', 'signed-in', 'none', 'files', { table: ACCESS.fileGet }),
  route('GET', '/api/user/files/{id}/raw', 'files/raw-owner', 'signed-in', 'none', 'files', { bucket: BUCKET.read }),
  route('GET', '/api/user/files/{id}/thumbnail', 'files/raw-owner', 'signed-in', 'none', 'files', { bucket: BUCKET.thumbnail }),
  route('PATCH', '/api/user/files/{id}', 'files/patch', 'signed-in', 'json', 'files', { hashesPasswords: true, table: ACCESS.filePatch }),
  route('DELETE', '/api/user/files/{id}', 'files/delete', 'signed-in', 'none', 'files', { table: ACCESS.fileDelete, bucket: BUCKET.delete }),
  route('POST', '/api/user/files/{id}/password', 'files/password', 'public', 'json', 'files', { hashesPasswords: true, table: ACCESS.filePassword }),
  route('GET', '/raw/{name}', 'files/raw', 'public', 'none', 'public', { hashesPasswords: true, table: ACCESS.raw, bucket: BUCKET.raw }),
  route('GET', '/view/{name}', 'view/page', 'public', 'none', 'public', { table: ACCESS.viewPage, bucket: BUCKET.viewPage }),
  route('POST', '/view/{name}', 'view/unlock', 'public', 'form', 'public', { hashesPasswords: true, table: ACCESS.viewUnlock, bucket: BUCKET.viewPage }),
  route('GET', '/u/{name}', 'view/link', 'public', 'none', 'public', { hashesPasswords: true, table: ACCESS.link, bucket: BUCKET.link }),
  route('POST', '/u/{name}', 'view/link', 'public', 'form', 'public', { hashesPasswords: true, table: ACCESS.link, bucket: BUCKET.link }),
  route('GET', '/r/{name}', 'files/raw', 'public', 'none', 'public', { hashesPasswords: true, table: ACCESS.raw, bucket: BUCKET.raw }),
  route('GET', '/api/oembed/{name}', 'view/oembed', 'public', 'none', 'public', { table: ACCESS.oembed }),
  route('POST', '/api/user/urls', 'links/create', 'signed-in', 'json', 'links', { hashesPasswords: true, table: ACCESS.linkCreate }),
  route('GET', '/api/user/urls', 'links/list', 'signed-in', 'none', 'links', { table: ACCESS.linkList }),
  route('GET', '/api/user/urls/{id}', 'links/get', 'signed-in', 'none', 'links', { table: ACCESS.linkGet }),
  route('PATCH', '/api/user/urls/{id}', 'links/patch', 'signed-in', 'json', 'links', { hashesPasswords: true, table: ACCESS.linkPatch }),
  route('DELETE', '/api/user/urls/{id}', 'links/delete', 'signed-in', 'none', 'links', { table: ACCESS.linkDelete }),
  route('POST', '/api/user/urls/{id}/password', 'links/password', 'public', 'json', 'links', { hashesPasswords: true, table: ACCESS.linkPassword }),
  route('GET', '/go/{code}', 'links/go', 'public', 'none', 'links', { table: ACCESS.go }),
  route('GET', '/view/url/{id}', 'links/view-url', 'public', 'none', 'links', { table: ACCESS.linkPage }),
  route('POST', '/view/url/{id}', 'links/view-url-unlock', 'public', 'form', 'links', { hashesPasswords: true, table: ACCESS.linkUnlock }),
  // Server settings, invites and registration (issue 38)
  route('GET', '/api/server/settings', 'server/settings-get', 'admin', 'none', 'admin', { table: ACCESS.settingsGet }),
  route('PATCH', '/api/server/settings', 'server/settings-patch', 'admin', 'json', 'admin', { table: ACCESS.settingsPatch }),
  route('GET', '/api/auth/invites', 'invites/list', 'admin', 'none', 'admin', { table: ACCESS.invitesList }),
  route('POST', '/api/auth/invites', 'invites/create', 'admin', 'json', 'admin', { table: ACCESS.invitesCreate }),
  route('GET', '/api/auth/invites/{id}', 'invites/get', 'admin', 'none', 'admin', { table: ACCESS.invitesFind }),
  route('DELETE', '/api/auth/invites/{id}', 'invites/delete', 'admin', 'none', 'admin', { table: ACCESS.invitesDelete }),
  route('POST', '/api/auth/register', 'auth/register', 'public', 'json', 'account', { usesKeys: true, hashesPasswords: true, table: ACCESS.register }),
  // Instance metrics (issue 36): the daily figures, one Query (docs/metrics.md)
  route('GET', '/api/stats', 'metrics/get', 'admin', 'none', 'admin', { table: ACCESS.stats }),
  // Home and sessions (issue 36)
  route('GET', '/api/user/stats', 'user/stats', 'signed-in', 'none', 'account', { table: ACCESS.userStats }),
  route('GET', '/api/user/recent', 'user/recent', 'signed-in', 'none', 'account', { table: ACCESS.userRecent }),
  route('GET', '/api/user/sessions', 'user/sessions-get', 'signed-in', 'none', 'account'),
  route('DELETE', '/api/user/sessions', 'user/sessions-delete', 'signed-in', 'json', 'account', { table: ACCESS.sessionsEnd }),
  // Folders and bulk actions (issue 35)
  route('GET', '/api/user/folders', 'folders/list', 'signed-in', 'none', 'files', { table: ACCESS.folderList }),
  route('POST', '/api/user/folders', 'folders/create', 'signed-in', 'json', 'files', { table: ACCESS.folderCreate }),
  route('GET', '/api/user/folders/{id}', 'folders/get', 'signed-in', 'none', 'files', { table: ACCESS.folderGet }),
  route('PUT', '/api/user/folders/{id}', 'folders/add-file', 'signed-in', 'json', 'files', { table: ACCESS.folderAddFile }),
  route('PATCH', '/api/user/folders/{id}', 'folders/patch', 'signed-in', 'json', 'files', { table: ACCESS.folderPatch }),
  route('DELETE', '/api/user/folders/{id}', 'folders/delete', 'signed-in', 'json', 'files', { table: ACCESS.folderDelete, bucket: BUCKET.delete }),
  route('PATCH', '/api/user/files/transaction', 'files/transaction-patch', 'signed-in', 'json', 'files', { table: ACCESS.filesBulkPatch }),
  route('GET', '/folder/{id}', 'view/folder', 'public', 'none', 'public', { table: ACCESS.folderPage, bucket: BUCKET.folderPage }),
  route('DELETE', '/api/user/files/transaction', 'files/transaction-delete', 'signed-in', 'json', 'files', { table: ACCESS.filesBulkDelete, bucket: BUCKET.delete }),
  // Tags (issue 35, docs/tags.md)
  route('GET', '/api/user/tags', 'tags/list', 'signed-in', 'none', 'files', { table: ACCESS.tagList }),
  route('POST', '/api/user/tags', 'tags/create', 'signed-in', 'json', 'files', { table: ACCESS.tagCreate }),
  route('GET', '/api/user/tags/{id}', 'tags/get', 'signed-in', 'none', 'files'),
  route('PATCH', '/api/user/tags/{id}', 'tags/patch', 'signed-in', 'json', 'files', { table: ACCESS.tagPatch }),
  route('DELETE', '/api/user/tags/{id}', 'tags/delete', 'signed-in', 'none', 'files', { table: ACCESS.tagDelete }),
  route('GET', '/api/users/{id}/tags', 'users/tags', 'admin', 'none', 'admin', { table: ACCESS.usersTags }),
  // Exports (issue 36, docs/exports.md)
  route('GET', '/api/user/export', 'user/export-list', 'signed-in', 'none', 'account', { table: ACCESS.exportList, bucket: BUCKET.exportList }),
  route('POST', '/api/user/export', 'user/export-start', 'signed-in', 'none', 'account', { table: ACCESS.exportStart, bucket: BUCKET.exportStart }),
  route('DELETE', '/api/user/export', 'user/export-delete', 'signed-in', 'none', 'account', { table: ACCESS.exportDelete, bucket: BUCKET.exportDelete }),
  // Zipline import (issue 40, docs/migrate-from-zipline.md): a SUPERADMIN's session only
  route('GET', '/api/import/zipline/status', 'import/status', 'admin', 'none', 'admin', { table: ACCESS.importStatus }),
  route('PUT', '/api/import/zipline/users/{ziplineId}', 'import/user', 'admin', 'json', 'admin', { table: ACCESS.importUser }),
  route('PUT', '/api/import/zipline/folders/{ziplineId}', 'import/folder', 'admin', 'json', 'admin', { table: ACCESS.importFolder }),
  route('PUT', '/api/import/zipline/tags/{ziplineId}', 'import/tag', 'admin', 'json', 'admin', { table: ACCESS.importTag }),
  route('PUT', '/api/import/zipline/urls/{ziplineId}', 'import/url', 'admin', 'json', 'admin', { hashesPasswords: true, table: ACCESS.importUrl }),
  route('PUT', '/api/import/zipline/files/{ziplineId}', 'import/file-start', 'admin', 'json', 'admin', { hashesPasswords: true, table: ACCESS.importFileStart, bucket: BUCKET.importFileStart }),
  route('POST', '/api/import/zipline/files/{ziplineId}/complete', 'import/file-complete', 'admin', 'json', 'admin', { table: ACCESS.importFileComplete, bucket: BUCKET.importFileComplete }),
];
