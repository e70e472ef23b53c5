// The package version, sent in the default User-Agent. Injected at build time from package.json
// (tsup and vitest `define`), so `changeset version` needs no second edit and no runtime reads it.
declare const __CLIENT_VERSION__: string;
export const VERSION: string = __CLIENT_VERSION__;
