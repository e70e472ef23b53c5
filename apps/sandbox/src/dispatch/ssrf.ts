// The SSRF guard the real service applies to webhook URLs: https, no embedded credentials, and a
// host that resolves only to public addresses (checked when saved and again before delivery).
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['::ffff:0:0', 96], ['2001:db8::', 32]] as const) blocked.addSubnet(net, prefix, 'ipv6');

/** The reason a URL is refused, in the service's words, or undefined when it is acceptable. */
export async function webhookUrlProblem(raw: string, allowPrivate: boolean): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'The webhook URL must be a valid URL.';
  }
  if (allowPrivate) return url.protocol === 'https:' || url.protocol === 'http:' ? undefined : 'The webhook URL must use HTTP or HTTPS.';
  if (url.protocol !== 'https:') return 'The webhook URL must use HTTPS.';
  if (url.username || url.password) return 'The webhook URL cannot contain embedded credentials.';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: Array<{ address: string; family: number }>;
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true });
  } catch {
    return 'The webhook URL host could not be resolved.';
  }
  if (addresses.length === 0) return 'The webhook URL host could not be resolved.';
  if (addresses.some((a) => blocked.check(a.address, a.family === 6 ? 'ipv6' : 'ipv4'))) return 'The webhook URL must resolve only to public IP addresses.';
  return undefined;
}
