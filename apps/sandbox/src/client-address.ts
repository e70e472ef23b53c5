// The address a request comes from: the connection's peer, unless the sandbox was told it sits
// behind trusted reverse proxies; then the X-Forwarded-For entry the nearest of them added. A
// forwarding header from anyone else is the client's own claim and is ignored.
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import ipaddr from 'ipaddr.js';

/**
 * `trustedProxies`: how many reverse proxies in front of the sandbox append to X-Forwarded-For
 * (0: none, the peer address is the client).
 */
export function clientAddress(c: Context, trustedProxies: number): string {
  const peer = peerAddress(c);
  if (trustedProxies === 0) return peer;
  const entries = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  // Each trusted proxy appended the address it saw; the one furthest out is the client.
  const claimed = entries[Math.max(0, entries.length - trustedProxies)];
  return claimed !== undefined && ipaddr.isValid(claimed) ? ipaddr.process(claimed).toString() : peer;
}

function peerAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // Not served by @hono/node-server (no socket to ask).
    return 'unknown';
  }
}
