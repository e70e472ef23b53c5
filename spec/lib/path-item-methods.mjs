// The HTTP methods an OpenAPI 3.1 Path Item may hold an operation under, in the specification's
// order: the one list every package walks a path item with (an operation under any of them counts).
export const PATH_ITEM_METHODS = Object.freeze(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
