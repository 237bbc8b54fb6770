import type { Database } from 'better-sqlite3';
import { oneRow } from './one-row.ts';
import { transact } from './transaction.ts';
import { sqlOn } from './prepare-on-use.ts';

/** What was spent in some scope: results priced, results unpriced, and what may be charged. */
export interface SpendTotals {
  /** Images (or videos) that came back. */
  results: number;
  /** Quota units of the results with a known price. */
  units: number;
  /** Results of models with no known price. */
  unpriced: number;
  /** Images asked for by requests that may have been charged (uncertain outcomes). */
  uncertain: number;
  uncertainUnits: number;
}

/** Which charges to sum; all AND-ed. Days are local `YYYY-MM-DD`, both ends included. */
export interface SpendFilter {
  fromDay?: string;
  toDay?: string;
  gateway?: string;
  batchId?: number;
}

const TOTALS = `total(results) AS results, total(units) AS units, total(unpriced) AS unpriced,
  total(uncertain) AS uncertain, total(uncertain_units) AS uncertainUnits`;

/** `(scope, key)` a budget cap the person chose to run past. */
export interface BudgetOverride {
  scope: string;
  key: string;
}

function spendStatements(db: Database) {
  const sql = sqlOn(db);
  return {
    clearPrices: sql('DELETE FROM spend_prices'),
    addPrice: sql('INSERT INTO spend_prices (model, per_image) VALUES (?, ?)'),
    price: sql<{ perImage: number }>(
      'SELECT per_image AS perImage FROM spend_prices WHERE model = ?',
    ),
    setGateway: sql('UPDATE queue_state SET spend_gateway = ? WHERE id = 1'),
    gateway: sql<{ gateway: string | null }>(
      'SELECT spend_gateway AS gateway FROM queue_state WHERE id = 1',
    ),
    grandTotal: sql<{ units: number }>(
      'SELECT total(units) + total(uncertain_units) AS units FROM spend',
    ),
    // the running jobs' estimated cost, by batch (few rows: the partial index of running jobs)
    inFlight: sql<{ batchId: number; units: number }>(
      `SELECT j.batch_id AS batchId, total(j.n * p.per_image) AS units
       FROM jobs AS j JOIN spend_prices AS p ON p.model = j.model
       WHERE j.state = 'running' GROUP BY j.batch_id`,
    ),
    jobCost: sql<{ batchId: number; units: number | null }>(
      `SELECT j.batch_id AS batchId, j.n * p.per_image AS units
       FROM jobs AS j LEFT JOIN spend_prices AS p ON p.model = j.model WHERE j.id = ?`,
    ),
    addOverride: sql(
      `INSERT INTO budget_overrides (scope, key, at) VALUES (?, ?, ?)
       ON CONFLICT (scope, key) DO UPDATE SET at = excluded.at`,
    ),
    overrides: sql<BudgetOverride>('SELECT scope, key FROM budget_overrides'),
    renameGateway: sql('UPDATE spend SET gateway = ? WHERE gateway = ?'),
    mergeRenamed: sql(
      `INSERT INTO spend (day, gateway, batch_id, model, results, units, unpriced, uncertain,
         uncertain_units)
       SELECT day, @to, batch_id, model, results, units, unpriced, uncertain, uncertain_units
       FROM spend WHERE gateway = @from AND true
       ON CONFLICT (day, gateway, batch_id, model) DO UPDATE SET
         results = results + excluded.results, units = units + excluded.units,
         unpriced = unpriced + excluded.unpriced, uncertain = uncertain + excluded.uncertain,
         uncertain_units = uncertain_units + excluded.uncertain_units`,
    ),
    dropGateway: sql('DELETE FROM spend WHERE gateway = ?'),
  };
}

type SpendStatements = ReturnType<typeof spendStatements>;

/**
 * What was spent, as the v8 triggers record it (results × the price then; what may have been
 * charged apart), summed by day, gateway, batch and model; the prices those triggers read; the
 * caps the person chose to run past. One statement per shape of filter, cached.
 */
export class SpendRepository {
  private readonly db: Database;
  private readonly s: SpendStatements;
  private readonly filtered = new Map<string, ReturnType<Database['prepare']>>();

  constructor(db: Database) {
    this.db = db;
    this.s = spendStatements(db);
  }

  /** The prices in force, by model: every model with a known price (the rest are unpriced). */
  setPrices(prices: ReadonlyMap<string, number>): void {
    transact(this.db, () => {
      this.s.clearPrices.run();
      for (const [model, perImage] of prices) this.s.addPrice.run(model, perImage);
    });
  }

  /** A model's price per image in force; null when none is known. */
  priceOf(model: string): number | null {
    return this.s.price.get(model)?.perImage ?? null;
  }

  /** The gateway the queue sends to now: charges from here on are counted against it. */
  setGateway(name: string | null): void {
    this.s.setGateway.run(name);
  }

  gateway(): string | null {
    return oneRow(this.s.gateway).gateway;
  }

  /** A gateway profile renamed: its spend follows it (a cap by gateway keeps counting). */
  renameGateway(from: string, to: string): void {
    transact(this.db, () => {
      this.s.mergeRenamed.run({ from, to });
      this.s.dropGateway.run(from);
    });
  }

  /** Everything spent and maybe charged, ever: a run's cap counts from it at the start. */
  grandTotal(): number {
    return oneRow(this.s.grandTotal).units;
  }

  /** The estimated cost of the requests in flight, by batch. */
  inFlight(): Map<number, number> {
    return new Map(this.s.inFlight.all().map((row) => [row.batchId, row.units]));
  }

  /** A job's estimated cost (n × its model's price; 0 when unknown) and its batch. */
  jobCost(jobId: number): { batchId: number; units: number } | null {
    const row = this.s.jobCost.get(jobId);
    return row ? { batchId: row.batchId, units: row.units ?? 0 } : null;
  }

  totals(filter: SpendFilter = {}): SpendTotals {
    const { where, params } = whereOf(filter);
    return this.prepared(`SELECT ${TOTALS} FROM spend ${where}`).get(params) as SpendTotals;
  }

  /** Spend per local day, newest first (days without spend left out). */
  byDay(filter: SpendFilter = {}): Array<SpendTotals & { day: string }> {
    return this.grouped('day', 'day DESC', filter) as Array<SpendTotals & { day: string }>;
  }

  byModel(filter: SpendFilter = {}): Array<SpendTotals & { model: string }> {
    return this.grouped('model', 'model', filter) as Array<SpendTotals & { model: string }>;
  }

  byGateway(filter: SpendFilter = {}): Array<SpendTotals & { gateway: string }> {
    return this.grouped('gateway', 'gateway', filter) as Array<SpendTotals & { gateway: string }>;
  }

  /** Each batch's totals, for a page of batch rows. */
  byBatches(ids: readonly number[]): Map<number, SpendTotals> {
    const totals = new Map<number, SpendTotals>();
    for (const id of ids) totals.set(id, this.totals({ batchId: id }));
    return totals;
  }

  addOverride(scope: string, key: string, now: number): void {
    this.s.addOverride.run(scope, key, now);
  }

  overrides(): BudgetOverride[] {
    return this.s.overrides.all();
  }

  private grouped(column: string, order: string, filter: SpendFilter): unknown[] {
    const { where, params } = whereOf(filter);
    return this.prepared(
      `SELECT ${column}, ${TOTALS} FROM spend ${where} GROUP BY ${column} ORDER BY ${order}`,
    ).all(params);
  }

  private prepared(text: string) {
    let statement = this.filtered.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.filtered.set(text, statement);
    }
    return statement;
  }
}

function whereOf(filter: SpendFilter): { where: string; params: Record<string, unknown> } {
  const terms: string[] = [];
  const params: Record<string, unknown> = {};
  if (filter.fromDay !== undefined) {
    terms.push('day >= @fromDay');
    params.fromDay = filter.fromDay;
  }
  if (filter.toDay !== undefined) {
    terms.push('day <= @toDay');
    params.toDay = filter.toDay;
  }
  if (filter.gateway !== undefined) {
    terms.push('gateway = @gateway');
    params.gateway = filter.gateway;
  }
  if (filter.batchId !== undefined) {
    terms.push('batch_id = @batchId');
    params.batchId = filter.batchId;
  }
  return { where: terms.length ? `WHERE ${terms.join(' AND ')}` : '', params };
}
