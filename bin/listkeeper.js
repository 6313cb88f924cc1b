#!/usr/bin/env node
// The package's command: Node 24 runs the TypeScript CLI directly (type stripping).
await import('../src/server/cli.ts');
