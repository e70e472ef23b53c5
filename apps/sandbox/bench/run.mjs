// `pnpm bench`: the sandbox benchmark on Node 24 (current LTS) first, then on Node 20 (the Node
// running this script), each printing its table with the search limit.
import { runBenchOnNode24ThenThisNode } from '@forms-api/runtimes';

runBenchOnNode24ThenThisNode(new URL('./sandbox.bench.mjs', import.meta.url));
