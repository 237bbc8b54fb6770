/**
 * Version 2: download counts per batch and state, kept by triggers like the jobs' counts, so
 * progress (ten times a second in the CLI and the app) never scans the images of a big batch.
 */
export const schemaV2 = /* sql */ `
CREATE TABLE batch_download_counts (
  batch_id INTEGER NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
  state    TEXT NOT NULL,
  n        INTEGER NOT NULL,
  PRIMARY KEY (batch_id, state)
) WITHOUT ROWID;

INSERT INTO batch_download_counts (batch_id, state, n)
  SELECT j.batch_id, i.download_state, count(*)
  FROM images AS i JOIN jobs AS j ON j.id = i.job_id
  GROUP BY 1, 2;

CREATE TRIGGER images_count_insert AFTER INSERT ON images
BEGIN
  INSERT INTO batch_download_counts (batch_id, state, n)
    VALUES ((SELECT batch_id FROM jobs WHERE id = NEW.job_id), NEW.download_state, 1)
    ON CONFLICT (batch_id, state) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER images_count_update AFTER UPDATE OF download_state ON images
WHEN NEW.download_state <> OLD.download_state
BEGIN
  UPDATE batch_download_counts SET n = n - 1
    WHERE batch_id = (SELECT batch_id FROM jobs WHERE id = OLD.job_id)
      AND state = OLD.download_state;
  INSERT INTO batch_download_counts (batch_id, state, n)
    VALUES ((SELECT batch_id FROM jobs WHERE id = NEW.job_id), NEW.download_state, 1)
    ON CONFLICT (batch_id, state) DO UPDATE SET n = n + 1;
END;

-- (a batch's deletion cascades to its jobs, then their images: the counts row goes with the
-- batch, so a count may be decremented just before it is dropped — harmless)
CREATE TRIGGER images_count_delete AFTER DELETE ON images
BEGIN
  UPDATE batch_download_counts SET n = n - 1
    WHERE batch_id = (SELECT batch_id FROM jobs WHERE id = OLD.job_id)
      AND state = OLD.download_state;
END;
`;
