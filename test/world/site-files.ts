// The files a site serves: its own files/ folder over those of the sites it extends. A layer may hide files of
// the layers below it (`remove_files`), so a site built on another can take a document away.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

export interface FileLayer {
  /** A site's files/ folder (it need not exist). */
  dir: string;
  /** Paths relative to files/ hidden in the layers below this one; a path ending in `/` hides a folder. */
  removed: string[];
}

/** `/a/b` and `a/b` name the same file; folders keep their trailing slash. */
export function normaliseFilePath(p: string): string {
  return p.replace(/^\/+/, '');
}

function hides(layer: FileLayer, rel: string): boolean {
  return layer.removed.some((r) => (r.endsWith('/') ? rel.startsWith(r) : rel === r));
}

async function fileIn(root: string, rel: string): Promise<{ file: string; rel: string } | null> {
  const file = path.resolve(root, rel);
  if (!file.startsWith(root + path.sep)) return null;
  try {
    const st = await stat(file);
    if (!st.isDirectory()) return { file, rel };
    const index = path.join(file, 'index.html');
    return (await stat(index)).isFile() ? { file: index, rel: `${rel.replace(/\/$/, '')}/index.html` } : null;
  } catch {
    return null;
  }
}

/** The file served at a URL path (`/` and `/dir/` give index.html): the topmost layer that has it, unless hidden. */
export async function findFile(layers: FileLayer[], urlPath: string): Promise<{ file: string; data: Buffer } | null> {
  const rel = normaliseFilePath(urlPath.endsWith('/') ? `${urlPath}index.html` : urlPath);
  if (rel === '') return null;
  for (const layer of layers) {
    const found = await fileIn(path.resolve(layer.dir), rel);
    if (found) return { file: found.file, data: await readFile(found.file) };
    if (hides(layer, rel)) return null;
  }
  return null;
}
