/**
 * Version 9: a batch's video jobs counted from an index of them alone, so a batch's summary
 * says what it makes (videos, images, or both) without reading its image jobs; video jobs are
 * few (each one slow and dear), image jobs may be a hundred thousand.
 */
export const schemaV9 = /* sql */ `
CREATE INDEX jobs_video_by_batch ON jobs (batch_id) WHERE kind = 'video';
`;
