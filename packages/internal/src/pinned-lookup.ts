// A DNS lookup for an HTTP request that answers with one address, checked beforehand (public, for
// a webhook receiver or a file link), so the connection goes where the check looked and DNS cannot
// answer differently in between. Node calls it for host names, not for literal addresses. Typed
// without Node's types (this package's other modules run anywhere); it fits `http.request`'s
// `lookup`.

export interface PinnedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

type LookupCallback = (error: null, address: string | PinnedAddress[], family?: number) => void;

export const pinnedLookup =
  (pinned: PinnedAddress) =>
  (_host: string, options: { all?: boolean }, callback: LookupCallback): void => {
    if (options.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
