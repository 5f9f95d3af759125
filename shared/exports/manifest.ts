import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ZipFile } from 'yazl';
import type { FileRecord } from '#shared/files/model';

/**
 * The export's `manifest.json`, written line by line into a temporary file as the files go into the
 * zip and added last from there: one entry per file would otherwise stay in memory for the whole run
 * (about 0.5 KB each, 25 MB for 50,000 files), and the run's memory is meant not to grow with the
 * library. Lambda's /tmp (512 MB) holds it many times over: about 350 bytes a file.
 */

export const MANIFEST_NAME = 'manifest.json';

/** What the manifest says of each file (its metadata; the `path` inside the zip, null if missing). */
export interface ManifestEntry {
  id: string;
  name: string;
  originalName: string;
  type: string;
  size: number;
  views: number;
  maxViews: number | null;
  favorite: boolean;
  password: boolean;
  createdAt: string;
  updatedAt: string;
  deletesAt: string | null;
  path: string | null;
}

export const manifestEntry = (file: FileRecord, path: string | null): ManifestEntry => ({
  id: file.id,
  name: file.name,
  originalName: file.originalName,
  type: file.type,
  size: file.size,
  views: file.views,
  maxViews: file.maxViews,
  favorite: file.favorite,
  password: file.passwordHash !== null,
  createdAt: file.createdAt,
  updatedAt: file.updatedAt,
  deletesAt: file.deletesAt,
  path,
});

export class ManifestFile {
  private entries = 0;
  private failure: Error | undefined;

  private constructor(
    private readonly directory: string,
    private readonly out: WriteStream,
  ) {
    // Kept for the next write to throw: an 'error' nobody listens to would end the process.
    out.on('error', (error) => {
      this.failure = error;
    });
    out.write('{"version":1,"files":[\n');
  }

  static async create(): Promise<ManifestFile> {
    const directory = await mkdtemp(join(tmpdir(), 'export-manifest-'));
    return new ManifestFile(directory, createWriteStream(join(directory, MANIFEST_NAME)));
  }

  private get path() {
    return join(this.directory, MANIFEST_NAME);
  }

  async add(entry: ManifestEntry): Promise<void> {
    if (this.failure) throw this.failure;
    const line = `${this.entries === 0 ? '' : ',\n'}${JSON.stringify(entry)}`;
    this.entries += 1;
    if (!this.out.write(line)) await once(this.out, 'drain');
  }

  /** Ends the manifest and adds it to the zip as its last entry (read from the file as the zip is written). */
  async addTo(zip: ZipFile): Promise<void> {
    this.out.end('\n]}\n');
    if (!this.out.writableFinished) await once(this.out, 'finish');
    if (this.failure) throw this.failure;
    const { size } = await stat(this.path);
    zip.addReadStream(createReadStream(this.path), MANIFEST_NAME, { mtime: new Date(), size });
  }

  /** Deletes the temporary file (a warm Lambda runs the next export in the same /tmp). */
  async remove(): Promise<void> {
    this.out.destroy();
    await rm(this.directory, { recursive: true, force: true });
  }
}
