import type { WebhookEvent } from '#shared/webhooks/event';
import { fillPlaceholders } from '#shared/webhooks/placeholders';

/** Zipline's placeholders in Discord texts (docs/webhooks.md#placeholders). */
const upload: WebhookEvent = {
  id: 'e1',
  type: 'upload',
  target: 'discord',
  occurredAt: '2026-11-26T14:00:00.000Z',
  user: { id: 'u1', username: 'alice', role: 'ADMIN' },
  file: {
    id: 'f1',
    name: 'aZ3x.png',
    originalName: 'holiday photo.png',
    type: 'image/png',
    size: 1_536_000,
    createdAt: '2026-11-26T14:00:00.000Z',
    deletesAt: null,
    maxViews: null,
    favorite: false,
    password: true,
  },
  link: { returned: 'https://files.example.com/u/aZ3x.png', raw: 'https://files.example.com/raw/aZ3x.png' },
};

test.each([
  ['{user.username} uploaded {file.originalName}', 'alice uploaded holiday photo.png'],
  ['{file.size::bytes} {file.size::comma}', '1.5 MB 1,536,000'],
  ['{user.username::upper} {user.role::lower} {user.username::length}', 'ALICE admin 5'],
  ['{file.createdAt::unix} {file.createdAt::date}', '1795701600 2026-11-26'],
  ['{file.password::yesno} {file.favorite::onoff}', 'Yes Off'],
  ['{file.deletesAt}', 'null'],
  ['{link.returned}', 'https://files.example.com/u/aZ3x.png'],
  ['{url.destination}', '{unknown_type}'],
  ['{user.token} {user.passwordHash}', '{unknown_property} {unknown_property}'],
  ['{user.username::shout}', '{unknown_str_modifier(shout)}'],
  ['line one\\nline two', 'line one\nline two'],
  ['{not.a.placeholder} {file}', '{not.a.placeholder} {file}'],
])('%s → %s', (text, expected) => {
  expect(fillPlaceholders(text, upload)).toBe(expected);
});
