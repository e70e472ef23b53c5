// `pnpm bench`: the inbox benchmark on Node 24 (current LTS) first, then on Node 20 (the Node
// running this script), each printing its table beside the plain listener and the 5 s budget.
import { runBenchOnNode24ThenThisNode } from '@forms-api/runtimes';

runBenchOnNode24ThenThisNode(new URL('./inbox.bench.mjs', import.meta.url));
