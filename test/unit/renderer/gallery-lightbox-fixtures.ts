import type { ImageDetail } from '../../../renderer/src/screens/gallery/lightbox/rerun-draft.ts';

/** An image's details as images.get answers them, with what a test changes. */
export function detail(patch: Partial<ImageDetail> = {}): ImageDetail {
  return {
    id: 7,
    jobId: 3,
    batchId: 2,
    idx: 0,
    kind: 'image',
    relPath: 'batch/img-7.png',
    thumbRelPath: 'batch/img-7.png',
    width: 1024,
    height: 768,
    format: 'png',
    bytes: 123_456,
    model: 'my-model',
    size: '1024x768',
    favorite: false,
    downloadState: 'done',
    failureCode: null,
    failureReason: null,
    createdAt: 1_700_000_000_000,
    prompt: 'a red fox',
    revisedPrompt: null,
    negativePrompt: null,
    seed: 42,
    params: {},
    batchName: 'Foxes',
    requestId: 'req-1',
    upstreamRequestId: 'up-1',
    sha256: 'ab'.repeat(32),
    path: '/lib/batch/img-7.png',
    ...patch,
  };
}
