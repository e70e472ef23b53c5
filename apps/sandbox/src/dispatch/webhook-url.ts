// The SSRF guard the service applies to webhook URLs: https, no embedded credentials, and a host
// that resolves only to public addresses, checked when saved and again before each delivery. A
// delivery connects to the address that was checked, so DNS cannot answer differently in between.
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import type { Result } from '@forms-api/types';

// ipaddr.js names every special-purpose block; IPv6 outside 2000::/3 (including the IPv4-compatible
// ::/96 and other unassigned space) is never a public receiver, whatever IPv4 address it embeds.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** True for a public unicast address: no private, loopback, link-local, reserved, mapped, NAT64, 6to4 or Teredo form. */
export function isPublicAddress(text: string): boolean {
  if (!ipaddr.isValid(text)) return false;
  const address = ipaddr.parse(text);
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  return address.range() === 'unicast' && address.match(GLOBAL_UNICAST_V6);
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface WebhookDestination {
  url: URL;
  /** The checked address to connect to; absent when private receivers are allowed (the resolver decides). */
  pinned?: ResolvedAddress;
}

export interface WebhookUrlPolicy {
  /** Allow http and any address (local development and tests). */
  allowPrivate: boolean;
  /** Resolves a host name to every address it has (default: the system resolver). */
  resolve?: (host: string) => Promise<ResolvedAddress[]>;
}

const systemResolve = async (host: string): Promise<ResolvedAddress[]> =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/** Where a webhook may be delivered, or the reason it may not, in the service's words. */
export async function checkWebhookUrl(
  raw: string,
  policy: WebhookUrlPolicy,
): Promise<Result<WebhookDestination, string>> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, error: 'The webhook URL must be a valid URL.' };
  }
  if (policy.allowPrivate)
    return url.protocol === 'https:' || url.protocol === 'http:'
      ? { ok: true, value: { url } }
      : { ok: false, error: 'The webhook URL must use HTTP or HTTPS.' };
  if (url.protocol !== 'https:') return { ok: false, error: 'The webhook URL must use HTTPS.' };
  if (url.username || url.password) return { ok: false, error: 'The webhook URL cannot contain embedded credentials.' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: ResolvedAddress[];
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }];
  } else {
    try {
      addresses = await (policy.resolve ?? systemResolve)(host);
    } catch {
      return { ok: false, error: 'The webhook URL host could not be resolved.' };
    }
  }
  if (addresses.length === 0) return { ok: false, error: 'The webhook URL host could not be resolved.' };
  if (!addresses.every((a) => isPublicAddress(a.address)))
    return { ok: false, error: 'The webhook URL must resolve only to public IP addresses.' };
  // Like the service, prefer an IPv4 address when the host has both.
  return { ok: true, value: { url, pinned: addresses.find((a) => a.family === 4) ?? addresses[0]! } };
}
