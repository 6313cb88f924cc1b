// Bundle section: size of every JS chunk, raw and gzip, and the initial-JS budget check.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { SectionResult } from './section.ts';

/** Gzipped JS the browser must load before the first page renders (kB = 1000 bytes, as Vite). */
export const initialJsBudgetBytes = 120_000;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

export async function bundleSize(distDir: string): Promise<SectionResult> {
  const manifest = JSON.parse(
    await readFile(path.join(distDir, '.vite/manifest.json'), 'utf8'),
  ) as Record<string, ManifestChunk>;
  const initial = initialFiles(manifest);

  const assetsDir = path.join(distDir, 'assets');
  const files = (await readdir(assetsDir)).filter((name) => name.endsWith('.js'));
  const rows = await Promise.all(
    files.map(async (name) => {
      const content = await readFile(path.join(assetsDir, name));
      const file = `assets/${name}`;
      return {
        file,
        raw: content.length,
        gzip: gzipSync(content).length,
        initial: initial.has(file),
      };
    }),
  );
  rows.sort((a, b) => b.gzip - a.gzip);

  const initialGzip = rows.filter((row) => row.initial).reduce((sum, row) => sum + row.gzip, 0);
  const ok = initialGzip <= initialJsBudgetBytes;
  const lines = [
    table(
      ['chunk', 'raw kB', 'gzip kB', 'initial'],
      rows.map((row) => [row.file, kB(row.raw), kB(row.gzip), row.initial ? 'yes' : '']),
    ),
    '',
    `initial JS: ${kB(initialGzip)} kB gzip, budget ${kB(initialJsBudgetBytes)} kB: ${ok ? 'PASS' : 'FAIL'}`,
  ];
  return { name: 'bundle size', ok, text: lines.join('\n') };
}

/** The entry chunks and everything they import statically (dynamic imports load later). */
function initialFiles(manifest: Record<string, ManifestChunk>): Set<string> {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    chunk.imports?.forEach(visit);
  };
  for (const [key, chunk] of Object.entries(manifest)) {
    if (chunk.isEntry) visit(key);
  }
  return files;
}

function kB(bytes: number): string {
  return (bytes / 1000).toFixed(2);
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  // First column left-aligned (names), the others right-aligned (numbers).
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
