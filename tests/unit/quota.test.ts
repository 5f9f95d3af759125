import * as v from 'valibot';
import { parseByteSize } from '#shared/quota';
import { quotaSchema } from '#shared/validation/users/admin';

test.each([
  ['10737418240', 10737418240],
  ['1', 1],
  ['10gb', 10737418240],
  ['10 GB', 10737418240],
  ['1.5GiB', 1610612736],
  ['512kb', 524288],
  ['2mb', 2097152],
  ['3b', 3],
  [' 7 ', 7],
])('byte size %p is %p bytes', (text, bytes) => {
  expect(parseByteSize(text)).toBe(bytes);
});

test.each(['', '0', '0.4', '-5', '10xb', 'gb', '1e9', '9007199254740992', '99999pb', '1,000', 'ten'])(
  'byte size %p is refused',
  (text) => {
    expect(parseByteSize(text)).toBeUndefined();
  },
);

test.each([
  [null, null],
  [
    { filesQuota: 'BY_BYTES', maxBytes: '1gb' },
    { filesQuota: 'BY_BYTES', maxBytes: '1073741824', maxFiles: null },
  ],
  [
    { filesQuota: 'BY_FILES', maxFiles: 100, maxBytes: null },
    { filesQuota: 'BY_FILES', maxBytes: null, maxFiles: 100 },
  ],
  [
    { filesQuota: 'BY_FILES', maxFiles: 100, maxUrls: 20 },
    { filesQuota: 'BY_FILES', maxBytes: null, maxFiles: 100, maxUrls: 20 },
  ],
])('quota %j is stored as %j', (input, stored) => {
  expect(v.parse(quotaSchema, input)).toEqual(stored);
});

test.each([
  [{ filesQuota: 'BY_BYTES' }],
  [{ filesQuota: 'BY_BYTES', maxBytes: null }],
  [{ filesQuota: 'BY_BYTES', maxBytes: '1gb', maxFiles: 3 }],
  [{ filesQuota: 'BY_FILES' }],
  [{ filesQuota: 'BY_FILES', maxFiles: 0 }],
  [{ filesQuota: 'BY_FILES', maxFiles: 1.5 }],
  [{ filesQuota: 'BY_FILES', maxFiles: '10' }],
  [{ filesQuota: 'BY_FILES', maxFiles: 10, maxBytes: '1' }],
  [{ filesQuota: 'NONE' }],
  [{ filesQuota: 'BY_BYTES', maxBytes: 1024 }],
  [{ filesQuota: 'BY_BYTES', maxBytes: '1gb', maxUrls: 0 }],
  ['BY_BYTES'],
])('quota %j is refused', (input) => {
  expect(v.safeParse(quotaSchema, input).success).toBe(false);
});
