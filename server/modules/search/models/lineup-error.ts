/** A lineup or a pool of arms this server cannot serve as configured: the start stops with its message. */
export class LineupError extends Error {}
