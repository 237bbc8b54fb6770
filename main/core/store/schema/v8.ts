/**
 * Version 8: spend under control, and the gallery's facets.
 * - spend: what was spent, summed by local day, gateway, batch and model; written by triggers
 *   the moment a job succeeds (its results × the price then) or fails in a way that may have
 *   been charged (uncertain, or a success that was no image: what was asked × the price), so
 *   no path of the engine can leave a charge out. A batch's deletion keeps its day's spend.
 * - spend_prices: the price per image in force, by model (the settings' or the catalogue's),
 *   kept by the process that runs the queue; the triggers and the budget read it.
 * - queue_state.spend_gateway: which gateway the queue sends to now (a profile's name or
 *   `demo`), what the spend is counted against.
 * - queue_state.pause_detail: what a budget pause stopped before (JSON), for its banner and
 *   its "run anyway".
 * - budget_overrides: caps the person chose to run past ("run anyway"), by scope and key.
 * - images.seed: the seed the gateway said it used, where its answer says.
 * - the images written, by size and by model: the gallery's filters list what exists.
 */
export const schemaV8 = /* sql */ `
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
CREATE INDEX spend_by_batch ON spend (batch_id);

ALTER TABLE queue_state ADD COLUMN spend_gateway TEXT;
ALTER TABLE queue_state ADD COLUMN pause_detail TEXT
  CHECK (pause_detail IS NULL OR json_valid(pause_detail));

CREATE TABLE budget_overrides (
  scope TEXT NOT NULL,
  key   TEXT NOT NULL,
  at    INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
) WITHOUT ROWID;

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

ALTER TABLE images ADD COLUMN seed INTEGER;
CREATE INDEX images_done_by_size ON images (size) WHERE download_state = 'done';
CREATE INDEX images_done_by_model ON images (model) WHERE download_state = 'done';
`;
