import { allTransitions } from '../../../../shared/jobs/states.ts';

const legalPairs = allTransitions()
  .map(({ from, to }) => `('${from}', '${to}')`)
  .join(', ');

/**
 * Version 1 of the schema. Times are milliseconds since the epoch (INTEGER), JSON columns
 * hold objects as text, paths are relative to the library folder (so it can move).
 */
export const schemaV1 = /* sql */ `
-- The whole queue's pause flag: one row. A pause-queue decision (auth, balance) sets it
-- with a reason the person sees; only an explicit resume clears it.
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
);
INSERT INTO queue_state (id) VALUES (1);

CREATE TABLE batches (
  id           INTEGER PRIMARY KEY,
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

CREATE TABLE jobs (
  -- insertion order is the queue order among equal priorities
  id                  INTEGER PRIMARY KEY,
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
);

-- The scheduler's two doors, both partial so finished jobs cost nothing:
-- queued jobs per batch in queue order, and retrying jobs by when they are due.
CREATE INDEX jobs_queued_order ON jobs (batch_id, priority DESC, id)
  WHERE state = 'queued' AND paused = 0;
CREATE INDEX jobs_retry_due ON jobs (next_attempt_at)
  WHERE state = 'retrying' AND paused = 0;
CREATE INDEX jobs_running ON jobs (id) WHERE state = 'running';
CREATE INDEX jobs_failed ON jobs (failure_kind, id) WHERE state = 'failed';
CREATE INDEX jobs_by_batch ON jobs (batch_id, position);
CREATE INDEX jobs_retry_of ON jobs (retry_of) WHERE retry_of IS NOT NULL;

-- Counts per state per batch, so progress never scans a big batch. Kept by triggers on
-- update and delete; inserts add theirs in bulk (JobRepository.insertJobs, the only insert path).
CREATE TABLE batch_state_counts (
  batch_id INTEGER NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
  state    TEXT NOT NULL,
  n        INTEGER NOT NULL,
  PRIMARY KEY (batch_id, state)
) WITHOUT ROWID;

-- The legal transitions, written from shared/jobs/states.ts: the database refuses any
-- other state change, whoever writes it.
CREATE TABLE job_transition_rules (
  from_state TEXT NOT NULL,
  to_state   TEXT NOT NULL,
  PRIMARY KEY (from_state, to_state)
) WITHOUT ROWID;
INSERT INTO job_transition_rules (from_state, to_state) VALUES ${legalPairs};

-- Append-only history of every state change.
CREATE TABLE job_transitions (
  id         INTEGER PRIMARY KEY,
  job_id     INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  from_state TEXT NOT NULL,
  to_state   TEXT NOT NULL,
  at         INTEGER NOT NULL,
  reason     TEXT
);
CREATE INDEX job_transitions_by_job ON job_transitions (job_id, id);

CREATE TRIGGER job_transitions_append_only_update BEFORE UPDATE ON job_transitions
BEGIN SELECT RAISE(ABORT, 'job_transitions is append-only'); END;

CREATE TRIGGER jobs_state_guard BEFORE UPDATE OF state ON jobs
WHEN NEW.state <> OLD.state AND NOT EXISTS (
  SELECT 1 FROM job_transition_rules WHERE from_state = OLD.state AND to_state = NEW.state)
BEGIN SELECT RAISE(ABORT, 'illegal job transition'); END;

-- every job is born queued: the counters and the log start from there
CREATE TRIGGER jobs_born_queued BEFORE INSERT ON jobs WHEN NEW.state <> 'queued'
BEGIN SELECT RAISE(ABORT, 'a new job must be queued'); END;

CREATE TRIGGER jobs_state_log AFTER UPDATE OF state ON jobs
WHEN NEW.state <> OLD.state
BEGIN
  INSERT INTO job_transitions (job_id, from_state, to_state, at, reason)
  VALUES (NEW.id, OLD.state, NEW.state, NEW.updated_at, NEW.state_reason);
  UPDATE batch_state_counts SET n = n - 1 WHERE batch_id = OLD.batch_id AND state = OLD.state;
  INSERT INTO batch_state_counts (batch_id, state, n) VALUES (NEW.batch_id, NEW.state, 1)
    ON CONFLICT (batch_id, state) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER jobs_count_delete AFTER DELETE ON jobs
BEGIN
  UPDATE batch_state_counts SET n = n - 1 WHERE batch_id = OLD.batch_id AND state = OLD.state;
END;

-- Prompt search for the gallery, an external-content index. Deletes and prompt edits are
-- synced by triggers; inserts are indexed with one INSERT…SELECT per bulk insert, because a
-- per-row trigger made 100,000 inserts four times slower.
CREATE VIRTUAL TABLE jobs_fts USING fts5 (
  prompt, content = 'jobs', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER jobs_fts_delete AFTER DELETE ON jobs BEGIN
  INSERT INTO jobs_fts (jobs_fts, rowid, prompt) VALUES ('delete', OLD.id, OLD.prompt);
END;
CREATE TRIGGER jobs_fts_update AFTER UPDATE OF prompt ON jobs BEGIN
  INSERT INTO jobs_fts (jobs_fts, rowid, prompt) VALUES ('delete', OLD.id, OLD.prompt);
  INSERT INTO jobs_fts (rowid, prompt) VALUES (NEW.id, NEW.prompt);
END;

-- Each request sent for a job.
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
CREATE INDEX attempts_by_job ON attempts (job_id, id);
CREATE INDEX attempts_open ON attempts (id) WHERE ended_at IS NULL;

-- One row per image a job returned. The result is stored before any download, so a failed
-- download can be retried from the URL or the bytes without generating again.
CREATE TABLE images (
  id               INTEGER PRIMARY KEY,
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
  updated_at       INTEGER NOT NULL,
  UNIQUE (job_id, idx),
  -- a download must have something to download from until it is done
  CHECK (source_url IS NOT NULL OR has_payload = 1 OR download_state = 'done')
);
CREATE INDEX images_download_due ON images (next_download_at, id) WHERE download_state = 'pending';
CREATE INDEX images_downloading ON images (id) WHERE download_state = 'downloading';
CREATE INDEX images_download_failed ON images (id) WHERE download_state = 'failed';

-- The decoded b64 of an image, kept apart so gallery scans never read it; dropped once the
-- file is safely on disk.
CREATE TABLE image_payloads (
  image_id INTEGER PRIMARY KEY REFERENCES images(id) ON DELETE CASCADE,
  bytes    BLOB NOT NULL
);
`;
