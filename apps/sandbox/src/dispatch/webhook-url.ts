// The SSRF guard the service applies to webhook URLs: https, no embedded credentials, and a host
// that resolves only to public addresses (checked when saved and again before delivery).
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { err, ok, type Result } from '../result.js';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['::ffff:0:0', 96], ['2001:db8::', 32]] as const) blocked.addSubnet(net, prefix, 'ipv6');

/** True for an address outside the blocked ranges. */
export function isPublicAddress(text: string): boolean {
  const family = isIP(text);
  return family !== 0 && !blocked.check(text, family === 6 ? 'ipv6' : 'ipv4');
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface WebhookDestination {
  url: URL;
}

export interface WebhookUrlPolicy {
  /** Allow http and any address (local development and tests). */
  allowPrivate: boolean;
  /** Resolves a host name to every address it has (default: the system resolver). */
  resolve?: (host: string) => Promise<ResolvedAddress[]>;
}

const systemResolve = async (host: string): Promise<ResolvedAddress[]> => (await lookup(host, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/** Where a webhook may be delivered, or the reason it may not, in the service's words. */
export async function checkWebhookUrl(raw: string, policy: WebhookUrlPolicy): Promise<Result<WebhookDestination, string>> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return err('The webhook URL must be a valid URL.');
  }
  if (policy.allowPrivate) return url.protocol === 'https:' || url.protocol === 'http:' ? ok({ url }) : err('The webhook URL must use HTTP or HTTPS.');
  if (url.protocol !== 'https:') return err('The webhook URL must use HTTPS.');
  if (url.username || url.password) return err('The webhook URL cannot contain embedded credentials.');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: ResolvedAddress[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await (policy.resolve ?? systemResolve)(host);
    } catch {
      return err('The webhook URL host could not be resolved.');
    }
  }
  if (addresses.length === 0) return err('The webhook URL host could not be resolved.');
  if (!addresses.every((a) => isPublicAddress(a.address))) return err('The webhook URL must resolve only to public IP addresses.');
  return ok({ url });
}
