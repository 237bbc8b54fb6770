/**
 * How far back a rate of jobs looks, for the queue's and each batch's alike (a queue running
 * one batch shows one figure twice): long enough to smooth bursts, short enough to follow a
 * change of speed.
 */
export const RATE_WINDOW_MS = 10_000;
