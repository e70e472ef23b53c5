// Types of index.mjs.
export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  /** The names and versions published to it. */
  readonly published: ReadonlyArray<{ name: string; version: string }>;
  /** `.npmrc` lines that send the @forms-api scope to this registry (everything else to npmjs). */
  readonly npmrc: string;
  close(): Promise<void>;
}

export interface LocalRegistryOptions {
  /** Folders of the packages to pack (`pnpm pack`: workspace ranges become versions) and publish. */
  packageDirs: readonly string[];
}

export function startLocalRegistry(options: LocalRegistryOptions): Promise<LocalRegistry>;

/** An empty registry: publish to it yourself (for example `changeset publish` with `publishNpmrc`). */
export interface EmptyRegistry {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  /** `.npmrc` lines that send the @forms-api scope to this registry (everything else to npmjs). */
  readonly npmrc: string;
  /** `npmrc` plus a token for this registry: what a publisher's `.npmrc` needs. */
  readonly publishNpmrc: string;
  /** Verdaccio's output so far, for error messages. */
  log(): string;
  close(): Promise<void>;
}

export function startRegistry(): Promise<EmptyRegistry>;
