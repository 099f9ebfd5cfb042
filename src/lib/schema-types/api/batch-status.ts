// Generated from schemas/api/batch-status.json by `npm run types`; edit the schema, not this file.

/**
 * Where a batch stands. done + failed items have a result; a cancelled batch's items not started have none.
 */
export interface BatchStatus {
  id: string;
  mode: 'quick' | 'full';
  /**
   * queued: no item started yet; running; done: every item has a result; cancelled: stopped by DELETE (items already running still finish).
   */
  status: 'queued' | 'running' | 'done' | 'cancelled';
  total: number;
  /**
   * Items finished with a verdict.
   */
  done: number;
  /**
   * Items finished without a verdict (their result carries `error`).
   */
  failed: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}
