import { defineConfig } from 'tsup';
import { library } from '../../tsup.preset.ts';

export default defineConfig(library({ entry: ['src/index.ts'] }));
