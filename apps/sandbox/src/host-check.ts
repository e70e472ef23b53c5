// Which `Host` a request may name. A web page that rebinds its own name to 127.0.0.1 reaches the
// sandbox with its own name in `Host`; refusing names the sandbox was not given closes that door
// (the page could otherwise create a webhook to another local service, with chosen headers).
import { SandboxError } from './errors.js';

/** A host name as `--allowed-host` takes it: letters, digits, dots and hyphens, no port or scheme. */
const HOST_NAME = /^(?=.{1,253}$)[a-z\d](?:[a-z\d-]*[a-z\d])?(?:\.[a-z\d](?:[a-z\d-]*[a-z\d])?)*\.?$/i;

/** The allowedHosts option, lowercased, or a SandboxError naming the first entry that is not a host name. */
export function checkedAllowedHosts(hosts: readonly string[] | undefined): string[] {
  for (const host of hosts ?? [])
    if (typeof host !== 'string' || !HOST_NAME.test(host))
      throw new SandboxError(
        'invalid_option',
        `allowedHosts takes host names such as sandbox.example.test, without scheme, port or path (got ${JSON.stringify(host)}).`,
        { context: { option: 'allowedHosts', allowedHost: host } },
      );
  return (hosts ?? []).map((h) => h.toLowerCase().replace(/\.$/, ''));
}

/**
 * A test of a request's `Host` header: an IP address (a rebinding page cannot send one, its
 * `Host` is its own name), `localhost`, or one of `names` (the public URL's, the listening host's,
 * and those the user allowed). The port is not judged: the page's name is what gives it away.
 */
export function hostAllowed(names: readonly string[]): (host: string | undefined) => boolean {
  const allowed = new Set(['localhost', ...names.map((n) => n.toLowerCase())]);
  return (host) => {
    if (!host || !URL.canParse(`http://${host}`)) return false;
    const url = new URL(`http://${host}`);
    // Only a bare host[:port]: anything else in the header is not a Host.
    if (url.username || url.password || `${url.host}` !== host.toLowerCase().replace(/:80$/, '')) return false;
    const name = url.hostname.replace(/\.$/, '');
    return name.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(name) || allowed.has(name);
  };
}
