// Prints which builds the package name and its `/fetch` subpath resolve to on this runtime
// (self-reference through the `exports` map), as "<root> <fetch>": "node node" means node:crypto.
const build = (specifier, node, web) => {
  const url = import.meta.resolve(specifier);
  return url.endsWith(node) ? 'node' : url.endsWith(web) ? 'web' : `unexpected(${url})`;
};
console.log(
  `${build('@forms-api/webhook-verify', '/dist/node.js', '/dist/web.js')} ${build('@forms-api/webhook-verify/fetch', '/dist/adapters/fetch-node.js', '/dist/adapters/fetch-web.js')}`,
);
