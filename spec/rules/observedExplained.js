// Anything taken from observation rather than the published contract says so in words, so a
// reader of the rendered docs (which hide extensions) can tell the two apart.
export default function observedExplained(document) {
  const results = [];
  const visit = (node, path) => {
    if (Array.isArray(node)) return node.forEach((item, i) => visit(item, [...path, i]));
    if (!node || typeof node !== 'object') return;
    if (node['x-observed'] === true && !/observ/i.test(`${node.description ?? ''} ${node.summary ?? ''}`)) {
      results.push({
        message: 'An element marked `x-observed: true` must say in its description that it is observed.',
        path: [...path, 'x-observed'],
      });
    }
    for (const [key, value] of Object.entries(node)) visit(value, [...path, key]);
  };
  visit(document, []);
  return results;
}
