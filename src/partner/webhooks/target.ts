import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook must never reach from inside our network: loopback, private, carrier-grade
 * NAT, link-local (cloud metadata at 169.254.169.254 and fd00:ec2::254 included), multicast and
 * reserved ranges.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata', 'instance-data']);

/** True when the address (v4, v6 or v4-mapped v6) is in a refused range. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
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
  if (isIP(host) && isPrivateAddress(host)) return { ok: false, reason: 'points to a private address' };
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
  if (!allowPrivate && answers.some((a) => isPrivateAddress(a.address)))
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
    if (answers.some((a) => isPrivateAddress(a.address))) return 'resolves to a private address';
  } catch {
    // Not resolvable now: judged again at delivery time.
  }
  return undefined;
}
