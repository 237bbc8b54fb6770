// Written by scripts/new-file-schema.ts from the migrations: never edited by hand.
import type { SchemaSnapshot } from '../migrations.ts';

/** What the migrations up to version 9 leave in a new file, as one script. */
export const NEW_FILE_SCHEMA: SchemaSnapshot = {
  version: 9,
  sql: `
CREATE TABLE queue_state (
  id           INTEGER PRIMARY KEY CHECK (id = 1),
  paused       INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
  pause_reason TEXT,
  pause_code   TEXT,
  paused_at    INTEGER,
  -- the one process allowed to run the queue (see runnerLease.ts)
  runner_id           TEXT,
  runner_pid          INTEGER,
  runner_host         TEXT,
  runner_heartbeat_at INTEGER
, pause_kind TEXT, spend_gateway TEXT, pause_detail TEXT
  CHECK (pause_detail IS NULL OR json_valid(pause_detail)));
CREATE TABLE batch_state_counts (
  batch_id INTEGER NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
  state    TEXT NOT NULL,
  n        INTEGER NOT NULL,
  PRIMARY KEY (batch_id, state)
) WITHOUT ROWID;
CREATE TABLE job_transition_rules (
  from_state TEXT NOT NULL,
  to_state   TEXT NOT NULL,
  PRIMARY KEY (from_state, to_state)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE jobs_fts USING fts5 (
  prompt, content = 'jobs', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TABLE attempts (
  id                  INTEGER PRIMARY KEY,
  job_id              INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  started_at          INTEGER NOT NULL,
  ended_at            INTEGER,
  http_status         INTEGER,
  request_id          TEXT,
  upstream_request_id TEXT,
  error_code          TEXT,
  error_message       TEXT,
  -- the classifier's decision (retry, fail, pause-queue, ...) and what it led to
  decision            TEXT,
  outcome             TEXT,
  retry_after_ms      INTEGER
);
CREATE TABLE image_payloads (
  image_id INTEGER PRIMARY KEY REFERENCES images(id) ON DELETE CASCADE,
  bytes    BLOB NOT NULL
);
CREATE TABLE batch_download_counts (
  batch_id INTEGER NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
  state    TEXT NOT NULL,
  n        INTEGER NOT NULL,
  PRIMARY KEY (batch_id, state)
) WITHOUT ROWID;
CREATE TABLE "job_transitions" (
      id         INTEGER PRIMARY KEY AUTOINCREMENT,
      job_id     INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
      from_state TEXT NOT NULL,
      to_state   TEXT NOT NULL,
      at         INTEGER NOT NULL,
      reason     TEXT
    );
CREATE TABLE "batches" (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  name         TEXT NOT NULL,
  -- folder name inside the library, chosen once at creation (renaming keeps the files)
  dir_name     TEXT NOT NULL,
  -- case-folded dir_name: two batches never share a folder on a case-insensitive disk
  dir_key      TEXT NOT NULL UNIQUE,
  created_at   INTEGER NOT NULL,
  settings     TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
  source       TEXT,
  paused       INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
  pause_reason TEXT,
  priority     INTEGER NOT NULL DEFAULT 0,
  job_count    INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE "jobs" (
  -- insertion order is the queue order among equal priorities
  id                  INTEGER PRIMARY KEY AUTOINCREMENT,
  batch_id            INTEGER NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
  -- 1-based row of the batch: the {index} of file names; a top-up shares its origin's
  position            INTEGER NOT NULL,
  priority            INTEGER NOT NULL DEFAULT 0,
  kind                TEXT NOT NULL DEFAULT 'image' CHECK (kind IN ('image', 'video')),
  prompt              TEXT NOT NULL,
  -- optional file-name stem from the sheet's "name" column
  name                TEXT,
  model               TEXT NOT NULL,
  size                TEXT,
  n                   INTEGER NOT NULL DEFAULT 1 CHECK (n >= 1),
  seed                INTEGER,
  params              TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(params)),
  state               TEXT NOT NULL DEFAULT 'queued'
                      CHECK (state IN ('queued', 'running', 'retrying', 'succeeded', 'failed', 'canceled')),
  -- why the last transition happened; copied into job_transitions by trigger
  state_reason        TEXT,
  paused              INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
  -- requests sent since the job was last (re)queued by the person: the retry budget
  tries               INTEGER NOT NULL DEFAULT 0,
  next_attempt_at     INTEGER,
  failure_kind        TEXT,
  error_code          TEXT,
  error_message       TEXT,
  last_request_id     TEXT,
  last_upstream_request_id TEXT,
  returned_n          INTEGER,
  -- the job this one completes (top-up of a partial success)
  retry_of            INTEGER REFERENCES jobs(id) ON DELETE SET NULL,
  -- first image number of this job within its prompt (a top-up continues the numbering)
  image_offset        INTEGER NOT NULL DEFAULT 0,
  video_task_id       TEXT,
  -- the platform's own task status (SUCCESS/FAILURE/IN_PROGRESS), never a job state
  video_task_status   TEXT,
  video_task_progress TEXT,
  created_at          INTEGER NOT NULL,
  updated_at          INTEGER NOT NULL,
  started_at          INTEGER,
  finished_at         INTEGER
, video_submitted_at INTEGER, video_checked_at INTEGER, video_check_request_id TEXT, video_platform_status TEXT, video_overdue_at INTEGER);
CREATE TABLE "images" (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  job_id           INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  -- 1-based image number within the prompt (continues across a top-up)
  idx              INTEGER NOT NULL CHECK (idx >= 1),
  source_url       TEXT,
  has_payload      INTEGER NOT NULL DEFAULT 0 CHECK (has_payload IN (0, 1)),
  revised_prompt   TEXT,
  download_state   TEXT NOT NULL DEFAULT 'pending'
                   CHECK (download_state IN ('pending', 'downloading', 'done', 'failed')),
  download_tries   INTEGER NOT NULL DEFAULT 0,
  -- when a pending download may start (0: at once); backoff after a failed try
  next_download_at INTEGER NOT NULL DEFAULT 0,
  failure_code     TEXT,
  failure_reason   TEXT,
  -- relative to the library; reserved before writing so two downloads never share a name
  rel_path         TEXT,
  path_key         TEXT UNIQUE,
  bytes            INTEGER,
  sha256           TEXT,
  width            INTEGER,
  height           INTEGER,
  format           TEXT,
  favorite         INTEGER NOT NULL DEFAULT 0 CHECK (favorite IN (0, 1)),
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL, batch_id INTEGER REFERENCES batches(id) ON DELETE CASCADE, model TEXT, size TEXT, done_at INTEGER, seed INTEGER,
  UNIQUE (job_id, idx),
  -- a download must have something to download from until it is done
  CHECK (source_url IS NOT NULL OR has_payload = 1 OR download_state = 'done')
);
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
CREATE TABLE spend_prices (
  model     TEXT PRIMARY KEY,
  per_image REAL NOT NULL CHECK (per_image >= 0)
) WITHOUT ROWID;
CREATE TABLE spend (
  -- the local day (YYYY-MM-DD) the charge was recorded on
  day             TEXT NOT NULL,
  -- the gateway the queue sent it to: a profile's name, 'demo', or '' when not known
  gateway         TEXT NOT NULL,
  -- no foreign key: a deleted batch's charges still count for their day
  batch_id        INTEGER NOT NULL,
  model           TEXT NOT NULL,
  -- images (or videos) that came back: what a partial success costs
  results         INTEGER NOT NULL DEFAULT 0,
  units           REAL NOT NULL DEFAULT 0,
  -- results of a model whose price was not known: counted, not priced
  unpriced        INTEGER NOT NULL DEFAULT 0,
  -- images asked for by requests that may have been charged (uncertain outcomes)
  uncertain       INTEGER NOT NULL DEFAULT 0,
  uncertain_units REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (day, gateway, batch_id, model)
) WITHOUT ROWID;
CREATE TABLE budget_overrides (
  scope TEXT NOT NULL,
  key   TEXT NOT NULL,
  at    INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
) WITHOUT ROWID;
INSERT INTO "queue_state" VALUES(1,0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "job_transition_rules" VALUES('canceled','queued');
INSERT INTO "job_transition_rules" VALUES('failed','queued');
INSERT INTO "job_transition_rules" VALUES('queued','canceled');
INSERT INTO "job_transition_rules" VALUES('queued','running');
INSERT INTO "job_transition_rules" VALUES('retrying','canceled');
INSERT INTO "job_transition_rules" VALUES('retrying','running');
INSERT INTO "job_transition_rules" VALUES('running','canceled');
INSERT INTO "job_transition_rules" VALUES('running','failed');
INSERT INTO "job_transition_rules" VALUES('running','queued');
INSERT INTO "job_transition_rules" VALUES('running','retrying');
INSERT INTO "job_transition_rules" VALUES('running','succeeded');
INSERT INTO "sqlite_sequence" VALUES('job_transitions',0);
INSERT INTO "sqlite_sequence" VALUES('batches',0);
INSERT INTO "sqlite_sequence" VALUES('jobs',0);
INSERT INTO "sqlite_sequence" VALUES('images',0);
CREATE INDEX attempts_by_job ON attempts (job_id, id);
CREATE INDEX attempts_open ON attempts (id) WHERE ended_at IS NULL;
CREATE INDEX job_transitions_by_job ON job_transitions (job_id, id);
CREATE INDEX jobs_queued_order ON jobs (batch_id, priority DESC, id)
  WHERE state = 'queued' AND paused = 0;
CREATE INDEX jobs_retry_due ON jobs (next_attempt_at)
  WHERE state = 'retrying' AND paused = 0;
CREATE INDEX jobs_running ON jobs (id) WHERE state = 'running';
CREATE INDEX jobs_failed ON jobs (failure_kind, id) WHERE state = 'failed';
CREATE INDEX jobs_by_batch ON jobs (batch_id, position);
CREATE INDEX jobs_retry_of ON jobs (retry_of) WHERE retry_of IS NOT NULL;
CREATE INDEX images_download_due ON images (next_download_at, id) WHERE download_state = 'pending';
CREATE INDEX images_downloading ON images (id) WHERE download_state = 'downloading';
CREATE INDEX images_download_failed ON images (id) WHERE download_state = 'failed';
CREATE INDEX images_by_batch ON images (batch_id, id);
CREATE INDEX images_by_model ON images (model, id);
CREATE INDEX images_by_size ON images (size, id);
CREATE INDEX images_by_time ON images (created_at);
CREATE INDEX images_favorites ON images (id) WHERE favorite = 1;
CREATE INDEX images_done_since ON images (done_at, id) WHERE download_state = 'done';
CREATE INDEX jobs_batch_state ON jobs (batch_id, state, position, id);
CREATE INDEX job_edits_by_source ON job_edits (source_image_id)
  WHERE source_image_id IS NOT NULL;
CREATE INDEX spend_by_batch ON spend (batch_id);
CREATE INDEX images_done_by_size ON images (size) WHERE download_state = 'done';
CREATE INDEX images_done_by_model ON images (model) WHERE download_state = 'done';
CREATE INDEX jobs_video_by_batch ON jobs (batch_id) WHERE kind = 'video';
CREATE TRIGGER job_transitions_append_only_update BEFORE UPDATE ON job_transitions
BEGIN SELECT RAISE(ABORT, 'job_transitions is append-only'); END;
CREATE TRIGGER jobs_state_guard BEFORE UPDATE OF state ON jobs
WHEN NEW.state <> OLD.state AND NOT EXISTS (
  SELECT 1 FROM job_transition_rules WHERE from_state = OLD.state AND to_state = NEW.state)
BEGIN SELECT RAISE(ABORT, 'illegal job transition'); END;
CREATE TRIGGER jobs_born_queued BEFORE INSERT ON jobs WHEN NEW.state <> 'queued'
BEGIN SELECT RAISE(ABORT, 'a new job must be queued'); END;
CREATE TRIGGER jobs_count_delete AFTER DELETE ON jobs
BEGIN
  UPDATE batch_state_counts SET n = n - 1 WHERE batch_id = OLD.batch_id AND state = OLD.state;
END;
CREATE TRIGGER jobs_fts_delete AFTER DELETE ON jobs BEGIN
  INSERT INTO jobs_fts (jobs_fts, rowid, prompt) VALUES ('delete', OLD.id, OLD.prompt);
END;
CREATE TRIGGER jobs_fts_update AFTER UPDATE OF prompt ON jobs BEGIN
  INSERT INTO jobs_fts (jobs_fts, rowid, prompt) VALUES ('delete', OLD.id, OLD.prompt);
  INSERT INTO jobs_fts (rowid, prompt) VALUES (NEW.id, NEW.prompt);
END;
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
CREATE TRIGGER images_count_delete AFTER DELETE ON images
BEGIN
  UPDATE batch_download_counts SET n = n - 1
    WHERE batch_id = (SELECT batch_id FROM jobs WHERE id = OLD.job_id)
      AND state = OLD.download_state;
END;
CREATE TRIGGER jobs_state_log AFTER UPDATE OF state ON jobs
WHEN NEW.state <> OLD.state
BEGIN
  INSERT INTO job_transitions (job_id, from_state, to_state, at, reason)
  VALUES (NEW.id, OLD.state, NEW.state, NEW.updated_at, NEW.state_reason);
  UPDATE batch_state_counts SET n = n - 1 WHERE batch_id = OLD.batch_id AND state = OLD.state;
  INSERT INTO batch_state_counts (batch_id, state, n) VALUES (NEW.batch_id, NEW.state, 1)
    ON CONFLICT (batch_id, state) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER spend_on_success AFTER UPDATE OF state ON jobs
WHEN NEW.state = 'succeeded' AND OLD.state <> 'succeeded'
BEGIN
  INSERT INTO spend (day, gateway, batch_id, model, results, units, unpriced)
  SELECT date(NEW.updated_at / 1000, 'unixepoch', 'localtime'),
    coalesce((SELECT spend_gateway FROM queue_state WHERE id = 1), ''),
    NEW.batch_id, NEW.model, got, got * coalesce(price, 0), CASE WHEN price IS NULL THEN got ELSE 0 END
  FROM (SELECT coalesce(NEW.returned_n, NEW.n) AS got,
    (SELECT per_image FROM spend_prices WHERE model = NEW.model) AS price)
  WHERE true
  ON CONFLICT (day, gateway, batch_id, model) DO UPDATE SET
    results = results + excluded.results,
    units = units + excluded.units,
    unpriced = unpriced + excluded.unpriced;
END;
CREATE TRIGGER spend_on_maybe_charged AFTER UPDATE OF state ON jobs
WHEN NEW.state = 'failed' AND OLD.state <> 'failed'
  AND NEW.failure_kind IN ('uncertain', 'not-an-image')
BEGIN
  INSERT INTO spend (day, gateway, batch_id, model, uncertain, uncertain_units)
  SELECT date(NEW.updated_at / 1000, 'unixepoch', 'localtime'),
    coalesce((SELECT spend_gateway FROM queue_state WHERE id = 1), ''),
    NEW.batch_id, NEW.model, NEW.n,
    NEW.n * coalesce((SELECT per_image FROM spend_prices WHERE model = NEW.model), 0)
  WHERE true
  ON CONFLICT (day, gateway, batch_id, model) DO UPDATE SET
    uncertain = uncertain + excluded.uncertain,
    uncertain_units = uncertain_units + excluded.uncertain_units;
END;
`,
};
