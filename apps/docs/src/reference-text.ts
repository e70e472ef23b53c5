// The bundled spec as the reference section of the site shows it. The spec keeps its evidence (the
// service's file and line behind each observation); the reference reads without it, and the
// "Known differences" page lists it instead. Nothing here changes what the contract says.
import { PATH_ITEM_METHODS } from '@forms-api/spec/path-item-methods';

type Json = Record<string, any>;

/** One citation of the service's code taken out of a description, and where it was. */
export interface SourceCitation {
  /** Where in the reference: an operation id, `parameter FormId`, `schema Submission, created_at`. */
  where: string;
  /** The files and lines, as the spec wrote them (`FormSubmissionController.php:41-52`). */
  lines: string;
  /** The commit of the service's source they were read at, as the spec wrote it. */
  commit: string;
}

/** `Name.php:12`, `Name.php:12-15`, `Name.php:54,68` or `54, 68`, a path before it, several joined by `,` or `and`. */
const CITATION = /((?:[\w./-]+\.php:\d+(?:-\d+)?(?:,\s*\d+(?:-\d+)?)*(?:,\s*|\s+and\s+)?)+)\s+at\s+([0-9a-f]{7,40})\b/g;

/** `text` without its citations of the service's code, and the citations it held. */
export function withoutCitations(text: string): { text: string; found: Array<{ lines: string; commit: string }> } {
  const found: Array<{ lines: string; commit: string }> = [];
  const flat = text.replace(CITATION, (_, lines: string, commit: string) => {
    found.push({ lines: lines.replace(/\s+/g, ' ').replace(/[,\s]+$/, ''), commit });
    return '\u0000';
  });
  if (found.length === 0) return { text, found };
  const out = flat
    // A parenthesis that held only citations goes, with the space before it.
    .replace(/\s*\((?:[\s,;]*\u0000)+[\s,;]*\)/g, '')
    // Otherwise the citation goes with the separator that joined it to the words beside it.
    .replace(/[,;]\s*\u0000/g, '')
    .replace(/\u0000\s*[,;]\s*/g, '')
    .replace(/\s*\u0000/g, '');
  return { text: out, found };
}

/** Plain-text fields Redoc shows as written: Markdown code marks would show as backticks. */
const plain = (text: string): string => text.replace(/`([^`]+)`/g, '$1');

/**
 * The document the reference renders, and the citations taken out of it. Also: server texts
 * without code marks (Redoc shows them as plain text), and no `maximum` of 2^53-1 on ids (Redoc
 * showed `[1 .. 9007199254740991]`; it is JSON's safe-integer bound, not a limit of the service).
 */
export function referenceForSite(bundle: Json): { spec: Json; citations: SourceCitation[] } {
  const spec: Json = structuredClone(bundle);
  const citations: SourceCitation[] = [];
  const visit = (node: unknown, where: string): void => {
    if (Array.isArray(node)) return node.forEach((item) => visit(item, where));
    if (typeof node !== 'object' || node === null) return;
    const record = node as Json;
    if (record.maximum === Number.MAX_SAFE_INTEGER && (record.type === 'integer' || record.format === 'int64'))
      delete record.maximum;
    for (const [key, value] of Object.entries(record)) {
      if (key === 'description' && typeof value === 'string') {
        const { text, found } = withoutCitations(value);
        record[key] = text;
        for (const f of found) citations.push({ where, ...f });
      } else if (!['example', 'examples', 'default', 'enum', 'const', 'value'].includes(key)) {
        visit(value, where);
      }
    }
  };
  for (const [path, item] of Object.entries<Json>(spec.paths ?? {})) {
    visit(item.parameters, `${path} (parameters)`);
    for (const method of PATH_ITEM_METHODS) if (item[method]) visit(item[method], item[method].operationId ?? path);
  }
  for (const [name, item] of Object.entries<Json>(spec.webhooks ?? {})) visit(item, `webhook ${name}`);
  for (const [kind, entries] of Object.entries<Json>(spec.components ?? {})) {
    const label = kind === 'schemas' ? 'schema' : kind === 'parameters' ? 'parameter' : kind.replace(/s$/, '');
    for (const [name, value] of Object.entries<Json>(entries ?? {})) {
      if (kind === 'schemas' && value?.properties) {
        // The schema's own words (its properties apart, each named): on the schema itself, not a copy.
        const { properties } = value;
        delete value.properties;
        visit(value, `${label} ${name}`);
        value.properties = properties;
        for (const [prop, schema] of Object.entries<Json>(properties)) visit(schema, `${label} ${name}, ${prop}`);
      } else visit(value, `${label} ${name}`);
    }
  }
  // The rest of the document (the introduction in `info`, the tags) cites the service too.
  for (const [key, value] of Object.entries(spec))
    if (!['paths', 'webhooks', 'components', 'servers'].includes(key)) visit(value, key);
  for (const server of spec.servers ?? []) {
    if (typeof server.description === 'string') server.description = plain(server.description);
    for (const variable of Object.values<Json>(server.variables ?? {}))
      if (typeof variable.description === 'string') variable.description = plain(variable.description);
  }
  return { spec, citations };
}
