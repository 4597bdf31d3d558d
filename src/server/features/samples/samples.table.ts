/** Tables of the samples feature (migration 2026-12-10-0400). */

export type SampleSetupsTable = {
  user_id: string;
  /** 1 once Delete All Data called the setting up off: no sample is written after it. */
  called_off: number;
};

export type SamplesTables = {
  sample_setups: SampleSetupsTable;
};
