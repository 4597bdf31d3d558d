import ipaddr from 'ipaddr.js';

/**
 * Which addresses Parley may connect to on a person's behalf (webhooks, calendars, chat services).
 * Only public unicast addresses by default: a URL a person types must not reach the server's own
 * loopback, the private network it sits in, or the cloud's instance-metadata service.
 */

/** Where an address points, as far as the outbound policy cares. */
export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'shared (carrier-grade NAT)'
  | 'unique local'
  | 'link-local'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  | 'cloud metadata'
  | 'reserved';

/** The instance-metadata services of the clouds: refused even when private networks are allowed. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', 'fd00:ec2::254', '100.100.100.200']);
export const METADATA_HOSTNAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata']);

/** The kind of a literal IPv4 or IPv6 address (IPv4-mapped IPv6 is judged as the IPv4 it carries); undefined when it is no address. */
export function classifyAddress(address: string): AddressKind | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  // A zone index (fe80::1%eth0) names an interface, so it is link-local whatever follows.
  const unzoned = bare.split('%')[0]!;
  // Only the plain forms: the URL parser and the resolver hand over those (1.2.3 or 0x7f.1 are names here).
  if (!ipaddr.IPv4.isValidFourPartDecimal(unzoned) && !ipaddr.IPv6.isValid(unzoned)) return undefined;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(unzoned);
  } catch {
    return undefined;
  }
  if (METADATA_ADDRESSES.has(parsed.toNormalizedString()) || METADATA_ADDRESSES.has(parsed.toString())) return 'cloud metadata';
  const range = parsed.range();
  switch (range) {
    case 'unicast':
      return 'public';
    case 'loopback':
      return 'loopback';
    case 'private':
      return 'private';
    case 'carrierGradeNat':
      return 'shared (carrier-grade NAT)';
    case 'uniqueLocal':
      return 'unique local';
    case 'linkLocal':
      return 'link-local';
    case 'unspecified':
      return 'unspecified';
    case 'multicast':
      return 'multicast';
    case 'broadcast':
      return 'broadcast';
    default:
      // 6to4, Teredo and NAT64 prefixes embed an IPv4 address that could be anything; documentation,
      // benchmarking and reserved ranges are nobody's service. None is a place to send data to.
      return 'reserved';
  }
}

/** Kinds a self-hoster may open with OUTBOUND_ALLOW_PRIVATE_NETWORKS=true (their own Slack-like services). */
const PRIVATE_KINDS: ReadonlySet<AddressKind> = new Set(['loopback', 'private', 'shared (carrier-grade NAT)', 'unique local', 'link-local', 'unspecified']);

/** Why an address may not be connected to, or undefined when it may. */
export function addressRefusal(address: string, allowPrivateNetworks: boolean): AddressKind | undefined {
  const kind = classifyAddress(address);
  if (kind === undefined || kind === 'public') return undefined;
  if (allowPrivateNetworks && PRIVATE_KINDS.has(kind)) return undefined;
  return kind;
}
