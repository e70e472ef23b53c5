// Node build (node:crypto), for Node, Bun and Deno: chosen by the "node" export condition.
import { nodeApi } from './builds/node.js';

export * from './exports.js';
export const { sign, verify, verifyOrThrow, parseWebhook, handleWebhook, createVerifier } = nodeApi;
