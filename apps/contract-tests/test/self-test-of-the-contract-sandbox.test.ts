// The suite reports each of the sandbox's fault switches, one at a time, on the sandbox that keeps
// the published contract; nothing on the healthy one.
import { sandboxSelfTest } from './sandbox-self-test.js';

sandboxSelfTest('contract');
