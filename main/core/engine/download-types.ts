import type { Batch, Image, Job } from '../store/rows.ts';

/** An image committed as done, its extras (sidecar, thumbnail) written: a client may show it. */
export interface ImageWritten {
  imageId: number;
  jobId: number;
  batchId: number;
  /** Where the file is, inside the library. */
  relPath: string;
  /** Its thumbnail was written (thumbnails are on, and making it did not fail). */
  thumbnail: boolean;
}

/** A claimed download with what it needs; stored bytes are read and named at claim time. */
export interface PreparedDownload {
  image: Image;
  job: Job;
  batch: Batch;
  payload: { bytes: Buffer; format: string; relPath: string } | null;
}
