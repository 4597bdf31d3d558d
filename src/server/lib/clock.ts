/** The time, as features that schedule or expire things read it (tests pass a clock they move). */
export type Clock = { now: () => Date };

export const systemClock: Clock = { now: () => new Date() };
