// Prints which build the package name resolves to on this runtime (self-reference through the
// `exports` map): Node must get the node:crypto build; Bun, Deno and Workers the Web Crypto one.
const url = import.meta.resolve('@forms-api/webhook-verify');
console.log(url.endsWith('/dist/node.js') ? 'node' : url.endsWith('/dist/web.js') ? 'web' : `unexpected ${url}`);
