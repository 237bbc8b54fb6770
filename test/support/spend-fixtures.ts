/** Nothing spent, as the contract says it (a batch row's `spent`, the queue's `spentToday`). */
export const NO_SPEND = Object.freeze({
  results: 0,
  units: 0,
  money: null,
  unpriced: 0,
  uncertain: 0,
  uncertainUnits: 0,
});

/** A batch check's spend when nothing is asked for, and no confirmation needed. */
export const NO_SPEND_CHECK = Object.freeze({
  requests: 0,
  images: 0,
  units: 0,
  money: null,
  unpriced: [],
  lines: [],
  confirm: { needed: false, reason: null, threshold: { units: null, requests: null } },
});
