// A README is shown on the registry's page, away from the repository: a relative link there
// (`../webhook-verify`, `./docs/x.md`) leads nowhere. Links must be absolute (the repository's URL
// from `repository`), in-page anchors (`#runtimes`) or mailto:.
const INLINE = /!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const REFERENCE = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm;
const CODE = /```[\s\S]*?```|`[^`\n]*`/g;

/** One message per link that would not work on a registry's page. */
export function readmeLinkProblems(markdown) {
  const text = markdown.replace(CODE, '');
  const targets = [...text.matchAll(INLINE), ...text.matchAll(REFERENCE)].map((m) => m[1]);
  return targets
    .filter((target) => !/^(https?:\/\/|mailto:|#)/i.test(target))
    .map(
      (target) =>
        `README links to "${target}", which does not resolve on a registry's page: link to the repository instead (https://github.com/<repository>/tree/main/<path>)`,
    );
}
