import { readdirSync } from 'node:fs';
import { PERMISSIONS } from '../constants.ts';
import { OPERATIONS, type Operation } from '../operations.ts';

/**
 * The two tables the browser loads, written from OPERATIONS (browser-tables.test.ts keeps them in
 * step): what the client sends and reads (client-operations.ts) and the permissions
 * (operation-permissions.ts), each without the rest of the entry. The permissions load before the
 * first page, which has no zod and no schema (its 120 kB budget, bench/bundle-size.ts); the
 * reasons for the extensions never load (issue 17 item 9).
 */

const HEADER = (file: string) =>
  `// Generated from OPERATIONS (operations.ts) by browser-tables.test.ts: edit the operation's entry
// there, then \`npx vitest run src/api/browser-tables.test.ts -u\` rewrites this file (${file}).
`;

/** Every exported schema of the contract by identity: the name and module the table imports. */
async function schemaExports(): Promise<Map<unknown, { module: string; name: string }>> {
  const schemaFiles = readdirSync(new URL('../schemas/', import.meta.url))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .sort();
  const modules = ['./primitives.ts', ...schemaFiles.map((file) => `./schemas/${file}`)];
  const found = new Map<unknown, { module: string; name: string }>();
  for (const module of modules) {
    const exports = (await import(new URL(`.${module}`, import.meta.url).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(exports))
      if (typeof value === 'object' && value !== null && !found.has(value)) found.set(value, { module, name });
  }
  return found;
}

const text = (value: string) => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
const entries = () => Object.entries(OPERATIONS) as [string, Operation][];

/**
 * An extension's operations load with the first call to one of them, in a module of their own
 * (extension-operations/<group>.ts), so that a page reading only spec v2 does not carry the held
 * queue's, the audit log's… schemas (bench/bundle-size.ts). `caller.get` stays with the spec's: the
 * shell asks it before every page.
 */
const SHELL_EXTENSIONS = new Set(['caller.get']);
const loadsLater = (name: string, operation: Operation) =>
  'extension' in operation && !SHELL_EXTENSIONS.has(name);
const groupOf = (name: string) => name.slice(0, name.indexOf('.'));

/** Extension groups loaded on first use, by group: the file written for each. */
export function extensionGroups(): string[] {
  return [...new Set(entries().filter(([name, op]) => loadsLater(name, op)).map(([name]) => groupOf(name)))].sort();
}

async function tableSource(
  file: string,
  selected: [string, Operation][],
  fromDirectory: string,
  exportName: string,
  comment: string,
  extra = '',
): Promise<string> {
  const schemas = await schemaExports();
  const imports = new Map<string, Set<string>>();
  const lines = selected.map(([name, operation]) => {
    const fields = [`method: ${text(operation.method)}`, `path: ${text(operation.path)}`];
    for (const key of ['query', 'body', 'response'] as const) {
      const schema = operation[key];
      if (schema === undefined) continue;
      const exported = schemas.get(schema);
      if (!exported)
        throw new Error(`${name}: its ${key} schema is not exported from primitives.ts or schemas/`);
      const names = imports.get(exported.module) ?? new Set<string>();
      imports.set(exported.module, names.add(exported.name));
      fields.push(`${key}: ${exported.name}`);
    }
    if (operation.collection) fields.push('collection: true');
    return `  ${text(name)}: { ${fields.join(', ')} },`;
  });
  const importLines = [...imports]
    .sort(([a], [b]) => (a === './primitives.ts' ? -1 : b === './primitives.ts' ? 1 : a.localeCompare(b)))
    .map(([module, names]) => `import { ${[...names].sort().join(', ')} } from '${fromDirectory}${module.slice(2)}';`);
  return `${HEADER(file)}import type { OperationCall, OperationName } from '${fromDirectory}operations.ts';
${importLines.join('\n')}
${extra}
/** ${comment} */
export const ${exportName}: Partial<Record<OperationName, OperationCall>> = {
${lines.join('\n')}
};
`;
}

export async function clientOperationsSource(): Promise<string> {
  const loaders = extensionGroups().map(
    (group) => `  ${text(group)}: () => import('./extension-operations/${group}.ts'),`,
  );
  const extra = `
/** The extensions' tables, each loaded on the first call to one of its operations (api/client.ts). */
export const EXTENSION_OPERATIONS: Record<string, () => Promise<{ OPERATIONS: Partial<Record<OperationName, OperationCall>> }>> = {
${loaders.join('\n')}
};
`;
  return tableSource(
    'client-operations.ts',
    entries().filter(([name, op]) => !loadsLater(name, op)),
    './',
    'CLIENT_OPERATIONS',
    "What the client sends and reads of each operation of spec v2 (api/client.ts), and nothing else of its entry.",
    extra,
  );
}

/** The table of one extension's operations (extension-operations/<group>.ts). */
export function extensionOperationsSource(group: string): Promise<string> {
  return tableSource(
    `extension-operations/${group}.ts`,
    entries().filter(([name, op]) => loadsLater(name, op) && groupOf(name) === group),
    '../',
    'OPERATIONS',
    `What the client sends and reads of the ${group}.* extension's operations.`,
  );
}

export function operationPermissionsSource(): string {
  const lines = entries().map(([name, { anyOf, global, ownAccount }]) => {
    const permissions = anyOf === PERMISSIONS ? 'PERMISSIONS' : `[${anyOf.map(text).join(', ')}]`;
    const own = ownAccount ? `, ownAccount: [${ownAccount.map(text).join(', ')}]` : '';
    return `  ${text(name)}: { anyOf: ${permissions}${global ? ', global: true' : ''}${own} },`;
  });
  return `${HEADER('operation-permissions.ts')}import { PERMISSIONS } from './constants.ts';
import type { OperationName, RouteRule } from './operations.ts';

/**
 * The permissions of each operation (SECURITY.md 16, RouteRule), which the dashboard reads before
 * its first page to show each person only what they may do, and its 403s to say what is missing.
 */
export const OPERATION_PERMISSIONS: Record<OperationName, RouteRule> = {
${lines.join('\n')}
};
`;
}
