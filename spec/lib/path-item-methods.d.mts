// Types of path-item-methods.mjs.
export type PathItemMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
/** The HTTP methods an OpenAPI 3.1 Path Item may hold an operation under, in the specification's order. */
export const PATH_ITEM_METHODS: readonly PathItemMethod[];
