// On the observed sandbox every known drift is present as well: each fault switch must still fail
// the run, as new drift on top of known drift, and the healthy baseline must show nothing unexpected.
import { sandboxSelfTest } from './sandbox-self-test.js';

sandboxSelfTest('observed');
