// Types of operations.mjs.

/** A parameter of an operation, its `$ref` followed. */
export interface SpecParameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly required: boolean;
  readonly schema: Record<string, unknown>;
  /** What a path parameter names (`x-identifies`: form, workspace, submission, integration, …). */
  readonly identifies?: string;
  /** What a path parameter's value that names nothing is answered (`x-unknown-status`; 404 when unsaid). */
  readonly unknownStatus?: number;
}

/** A link of an operation's 200 response: the operation it leads to and how its parameters are filled. */
export interface SpecLink {
  readonly name: string;
  readonly operationId: string;
  /** Parameter name -> runtime expression (`$request.path.form`, `$response.body#/id`). */
  readonly parameters: Readonly<Record<string, string>>;
}

export interface SpecOperation {
  readonly operationId: string;
  /** Upper case: GET, PUT, POST, DELETE, … */
  readonly method: string;
  /** The path template, as the spec writes it. */
  readonly path: string;
  /** The token abilities that grant it (any one suffices); empty when public. */
  readonly abilities: readonly string[];
  /** The documented response statuses, ascending. */
  readonly statuses: readonly number[];
  /** Takes no token (`security: []`). */
  readonly public: boolean;
  readonly parameters: readonly SpecParameter[];
  /** The JSON request body, when the operation takes one. */
  readonly jsonBody?: {
    readonly schema: Record<string, unknown>;
    readonly required: boolean;
    /** Top-level body properties that name a resource of the tenant (`x-identifies`), such as `workspace_id`. */
    readonly identifying: readonly { readonly name: string; readonly identifies: string }[];
  };
  /** Every media type of the 200 answer (empty when it has no content). */
  readonly successMediaTypes: readonly string[];
  readonly links: readonly SpecLink[];
  /**
   * For a list (its 200 an array, or a page's `data`): the row properties that name a resource
   * (`x-identifies`), such as a submission's `form_id`. Each row must name the parent the path names.
   */
  readonly rowIdentifying?: readonly { readonly name: string; readonly identifies: string }[];
  /** The order the list states for its rows (`x-order`): a JSON pointer into a row, and its direction. */
  readonly rowOrder?: { readonly by: string; readonly descending: boolean };
  /** The rate-limit bucket of its own the service counts it in (`x-rate-limit`); absent: the shared one. */
  readonly rateLimit?: SpecRateLimit;
}

/** A rate-limit bucket of its own: `limit` requests per `windowSeconds`, per user. */
export interface SpecRateLimit {
  readonly bucket: string;
  readonly limit: number;
  readonly windowSeconds: number;
}

/** Follows local `$ref`s (`#/components/...`) of `bundle` until a value that is not one; other values as they are. */
export function resolved(bundle: Record<string, unknown>, value: unknown): unknown;

/** Every operation of a bundled spec, in the order the spec lists them. */
export function specOperations(bundle: Record<string, unknown>): SpecOperation[];

/** The bucket every operation without one of its own is counted in (the document's `x-rate-limit`). */
export function sharedRateLimit(bundle: Record<string, unknown>): SpecRateLimit;

/** How the service sends a webhook (`x-delivery`): attempts, the seconds it waits for an answer, redirects. */
export interface SpecWebhookDelivery {
  readonly attempts: number;
  readonly timeoutSeconds: number;
  readonly followsRedirects: boolean;
}

/** How the service sends the webhook `name` (`x-delivery` of its POST); throws when it is missing or malformed. */
export function webhookDelivery(bundle: Record<string, unknown>, name: string): SpecWebhookDelivery;
