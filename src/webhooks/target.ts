import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

import ipaddr from 'ipaddr.js';

const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata', 'instance-data']);
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * The IPv4 address carried by an IPv6 form that reaches an IPv4 host: mapped (`::ffff:a.b.c.d`),
 * translated (`::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`), 6to4 (`2002:AABB:CCDD::`) and the
 * deprecated IPv4-compatible `::a.b.c.d`.
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = address.parts;
  const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return v4(p[6]!, p[7]!);
    case 'rfc6052':
      // The well-known /96 carries the address at its end; the local-use 64:ff9b:1::/48 is never public.
      return p.slice(2, 6).every((part) => part === 0) ? v4(p[6]!, p[7]!) : undefined;
    case '6to4':
      return v4(p[1]!, p[2]!);
    default:
      return p.slice(0, 6).every((part) => part === 0) ? v4(p[6]!, p[7]!) : undefined;
  }
}

/**
 * True only for a global unicast address: a public IPv4 address, an IPv6 address of 2000::/3 in no
 * special range (documentation, Teredo, benchmarking, ORCHID… refused), or an IPv6 form whose
 * embedded IPv4 address is public. Loopback, private, carrier-grade NAT, link-local (cloud metadata
 * at 169.254.169.254 and fd00:ec2::254 included), multicast and reserved addresses are refused,
 * however they are spelled. Ranges are those of `ipaddr.js`.
 */
export function isPublicAddress(text: string): boolean {
  if (isIP(text) === 0) return false;
  const address = ipaddr.parse(text);
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  const v6 = address as ipaddr.IPv6;
  const v4 = embeddedIpv4(v6);
  if (v4) return v4.range() === 'unicast';
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6);
}

export type TargetCheck = { ok: true; url: URL } | { ok: false; reason: string };

const bareHost = (url: URL) =>
  url.hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');

/** Scheme and literal host, without DNS: what can be judged from the text of the URL alone. */
export function checkTargetText(raw: string, allowPrivate: boolean): TargetCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'is not a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'must use http or https' };
  if (!url.hostname) return { ok: false, reason: 'has no host' };
  if (allowPrivate) return { ok: true, url };
  const host = bareHost(url);
  if (host === 'localhost' || host.endsWith('.localhost') || METADATA_HOSTS.has(host))
    return { ok: false, reason: 'points to a private address' };
  if (isIP(host) && !isPublicAddress(host)) return { ok: false, reason: 'points to a private address' };
  return { ok: true, url };
}

export interface ResolvedTarget {
  url: URL;
  /** The vetted address the connection must use, so that a second DNS answer cannot differ. */
  address: string;
  family: 4 | 6;
}

/**
 * The URL's address after DNS resolution, refused when any answer is in a private range (a name
 * that resolves to both a public and a private address is refused too).
 */
export async function resolveTarget(raw: string, allowPrivate: boolean): Promise<ResolvedTarget | { reason: string }> {
  const text = checkTargetText(raw, allowPrivate);
  if (!text.ok) return { reason: text.reason };
  const host = bareHost(text.url);
  if (isIP(host)) return { url: text.url, address: host, family: isIP(host) as 4 | 6 };
  let answers: { address: string; family: number }[];
  try {
    answers = await lookup(host, { all: true });
  } catch (error) {
    return { reason: `host ${host} did not resolve (${(error as NodeJS.ErrnoException).code ?? 'DNS error'})` };
  }
  if (answers.length === 0) return { reason: `host ${host} did not resolve` };
  if (!allowPrivate && answers.some((a) => !isPublicAddress(a.address)))
    return { reason: 'resolves to a private address' };
  return { url: text.url, address: answers[0]!.address, family: answers[0]!.family as 4 | 6 };
}

/**
 * Registration check: the text rules, then DNS when the name resolves. A name that does not
 * resolve yet is accepted; every attempt resolves and checks again.
 */
export async function checkTargetAtRegistration(raw: string, allowPrivate: boolean): Promise<string | undefined> {
  const text = checkTargetText(raw, allowPrivate);
  if (!text.ok) return text.reason;
  if (allowPrivate || isIP(bareHost(text.url))) return undefined;
  try {
    const answers = await lookup(bareHost(text.url), { all: true });
    if (answers.some((a) => !isPublicAddress(a.address))) return 'resolves to a private address';
  } catch {
    // Not resolvable now: judged again at delivery time.
  }
  return undefined;
}
