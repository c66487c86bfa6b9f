#!/usr/bin/env node
// tlbscope command line (see main.mjs). The CLI shares the web app's TypeScript modules (the
// simulator's run path, the recording importer, the Perfetto export): their loader hooks must
// be registered before any module that imports them is resolved, hence this two-step start.
import { register } from 'node:module';

register('./tsLoader.mjs', import.meta.url);
await import('./main.mjs');
