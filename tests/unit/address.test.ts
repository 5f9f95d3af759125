import { addressSubject } from '#shared/throttle/address';

test.each([
  ['192.0.2.1', '192.0.2.1'],
  ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
  ['2001:0DB8:0001:0002:abcd:0:0:1', '2001:db8:1:2::/64'],
  ['2001:db8::', '2001:db8:0:0::/64'],
  ['::1', '0:0:0:0::/64'],
  ['fe80::1%eth0', 'fe80:0:0:0::/64'],
  ['::ffff:192.0.2.80', '192.0.2.80'],
  ['::ffff:c000:250', '192.0.2.80'],
  ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
])('a per-address limit counts %s as %s', (address, subject) => {
  expect(addressSubject(address)).toBe(subject);
});
