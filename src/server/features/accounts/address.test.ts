import { describe, expect, it } from 'vitest';
import { addressKey } from './service';

describe('addressKey', () => {
  it('keeps an IPv4 address, and reads an IPv4-mapped IPv6 address as IPv4', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    const home = '2001:db8:85a3:12::/64';
    expect(addressKey('2001:db8:85a3:12::1')).toBe(home);
    expect(addressKey('2001:0db8:85a3:0012:ffff:1:2:3')).toBe(home);
    expect(addressKey('2001:DB8:85A3:12:0:0:0:9')).toBe(home);
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });

  it('counts a request without an address under one key', () => {
    expect(addressKey(null)).toBe('unknown');
  });
});
