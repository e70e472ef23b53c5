// `pnpm bench`: drift matching, then the explorer's benchmark on Node 24 (current LTS) first and
// on the Node running this script (the oldest supported), each printing its figures.
import { runBenchOnNode24ThenThisNode } from '../../../tools/runtimes/index.mjs';

runBenchOnNode24ThenThisNode(new URL('./explore.bench.mjs', import.meta.url));
