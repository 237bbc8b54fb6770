/**
 * Version 6: edits. A job that edits a picture has a `job_edits` row: the picture and the mask
 * it sends, by the sha256 of their bytes in the data folder's `edit-inputs/` (so a retry, a
 * top-up or a resume after a crash sends the very same bytes), the gallery image it was made
 * from (the images it returns are "edited from" that one), and whether the result is pasted
 * back over the picture outside the mask. The gallery's "edits only" filter reads this table.
 */
export const schemaV6 = /* sql */ `
CREATE TABLE job_edits (
  job_id            INTEGER PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
  -- the picture sent: PNG, EXIF orientation applied, in <data>/edit-inputs/<sha256>.png
  image_sha256      TEXT NOT NULL CHECK (length(image_sha256) = 64),
  width             INTEGER NOT NULL CHECK (width > 0),
  height            INTEGER NOT NULL CHECK (height > 0),
  -- the mask sent (PNG, the picture's size, transparent where it may change); null: none
  mask_sha256       TEXT CHECK (mask_sha256 IS NULL OR length(mask_sha256) = 64),
  -- the gallery image edited; null for a file from outside the library, or once deleted
  source_image_id   INTEGER REFERENCES images(id) ON DELETE SET NULL,
  -- what the picture was, for a person: the image's library path, or the file's path
  source_label      TEXT NOT NULL,
  keep_outside_mask INTEGER NOT NULL DEFAULT 0 CHECK (keep_outside_mask IN (0, 1)),
  CHECK (keep_outside_mask = 0 OR mask_sha256 IS NOT NULL)
);
CREATE INDEX job_edits_by_source ON job_edits (source_image_id)
  WHERE source_image_id IS NOT NULL;
`;
