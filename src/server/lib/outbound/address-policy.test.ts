import { describe, expect, it } from 'vitest';
import { addressRefusal, classifyAddress } from './address-policy.ts';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared (carrier-grade NAT)'],
    ['fd12:3456::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['169.254.10.10', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['169.254.169.254', 'cloud metadata'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'cloud metadata'],
    ['::ffff:8.8.8.8', 'public'],
    ['2002:7f00:1::', 'reserved'],
    ['64:ff9b::a00:1', 'reserved'],
    ['192.0.2.1', 'reserved'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('answers undefined for names and garbage', () => {
    expect(classifyAddress('example.com')).toBeUndefined();
    expect(classifyAddress('1.2.3')).toBeUndefined();
    expect(classifyAddress('')).toBeUndefined();
  });
});

describe('addressRefusal', () => {
  it('refuses every non-public kind by default and lets public addresses and names through', () => {
    expect(addressRefusal('8.8.8.8', false)).toBeUndefined();
    expect(addressRefusal('example.com', false)).toBeUndefined();
    expect(addressRefusal('127.0.0.1', false)).toBe('loopback');
    expect(addressRefusal('10.0.0.1', false)).toBe('private');
  });

  it('opens private networks with the flag but never cloud metadata, multicast or reserved ranges', () => {
    expect(addressRefusal('127.0.0.1', true)).toBeUndefined();
    expect(addressRefusal('192.168.0.10', true)).toBeUndefined();
    expect(addressRefusal('fd12::1', true)).toBeUndefined();
    expect(addressRefusal('169.254.169.254', true)).toBe('cloud metadata');
    expect(addressRefusal('fd00:ec2::254', true)).toBe('cloud metadata');
    expect(addressRefusal('224.0.0.1', true)).toBe('multicast');
    expect(addressRefusal('2002:7f00:1::', true)).toBe('reserved');
  });
});
